import type { BrowserContext } from 'playwright-core';
import { ROUTES } from '#api-server';
import { ControllerCluster } from '../controller/harness.js';
import { ApiPlane } from './harness.js';
import { describeIfChromium, launchChromium } from '../web/chromium.js';

/** Swagger UI at /api/docs in a real browser: it renders every operation under its CSP, nothing from elsewhere. */
describeIfChromium('Swagger UI in Chromium', () => {
  let cluster: ControllerCluster;
  let plane: ApiPlane;
  let context: BrowserContext;
  let browser: { close(): Promise<void> } | undefined;

  beforeAll(async () => {
    cluster = await ControllerCluster.start();
    plane = await ApiPlane.start({ webDir: false }, cluster);
    ({ context, ...browser } = await launchChromium('docs'));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await plane?.stop({ cluster: false });
    await cluster?.stop();
  }, 60_000);

  it('shows the document’s title and every operation, with no console error and no request elsewhere', async () => {
    const page = context.pages()[0] ?? (await context.newPage());
    const errors: string[] = [];
    const elsewhere: string[] = [];
    page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    page.on(
      'request',
      (r) => void (!r.url().startsWith(plane.url) && !r.url().startsWith('data:') && elsewhere.push(r.url())),
    );
    await page.goto(`${plane.url}/api/docs`);
    await page.locator('.swagger-ui .info .title').filter({ hasText: 'OAM platform REST API' }).waitFor();
    const operations = Object.keys(ROUTES).length - 1; // the document lists /api/openapi.json once
    await page
      .locator('.opblock')
      .nth(operations - 1)
      .waitFor();
    expect(await page.locator('.opblock').count()).toBe(operations);
    expect(errors).toEqual([]);
    expect(elsewhere).toEqual([]);
  }, 120_000);
});
