/**
 * The web catalog end to end: Debian's Chromium (playwright-core) against the
 * page served by the REST API, on the embedded server with the controller.
 * Browse the catalog, create a webservice with an HPA through the form, see a
 * wrong value's error at its field, preview, deploy, watch it turn healthy
 * without a reload, edit (and a conflict), roll back, delete. Each state is
 * saved under test/web/screenshots/ (OAM_README_IMAGES=1 also refreshes the
 * README's two in docs/images/); axe-core finds no serious violation.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { eventually } from '#kube-core';
import { ADMIN, ApiPlane, call } from '../api/harness.js';
import { describeIfChromium, launchChromium } from './chromium.js';

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..');
const SHOTS = join(root, 'test', 'web', 'screenshots');
const NS = 'default';
const APP = 'shop';
/** Console messages a browser prints for API answers the page expects and shows (the 401, 409 and 422 steps). */
let expectedConsole = /Failed to load resource: the server responded with a status of (401|409|422)/;

describeIfChromium('the web catalog in Chromium', () => {
  let plane: ApiPlane;
  let context: BrowserContext;
  let page: Page;
  let webDir: string;
  let browser: { close(): Promise<void> } | undefined;
  const consoleErrors: string[] = [];
  let shotIndex = 0;

  async function shot(name: string, readme?: string): Promise<void> {
    const file = join(SHOTS, `${String(++shotIndex).padStart(2, '0')}-${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    if (readme && process.env.OAM_README_IMAGES) {
      mkdirSync(join(root, 'docs', 'images'), { recursive: true });
      copyFileSync(file, join(root, 'docs', 'images', readme));
    }
  }

  /** axe-core on the current page: no serious or critical violation. */
  async function accessible(what: string): Promise<void> {
    const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    await page.evaluate(source);
    const violations = await page.evaluate(async () => {
      // Runs in the page (this file is type-checked without the DOM library).
      const browser = globalThis as any;
      const result = await browser.axe.run(browser.document, { resultTypes: ['violations'] });
      return result.violations
        .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
        .map((v: any) => `${v.id} (${v.impact}): ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
    });
    expect({ page: what, violations }).toEqual({ page: what, violations: [] });
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // The page from the current sources, into a directory of its own (not the worktree's dist/).
    webDir = mkdtempSync(join(tmpdir(), 'oam-web-'));
    const built = spawnSync(
      process.execPath,
      [
        join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
        'build',
        'apps/web',
        '--outDir',
        webDir,
        '--emptyOutDir',
      ],
      { cwd: root, encoding: 'utf8' },
    );
    if (built.status !== 0) throw new Error(`vite build failed:\n${built.stdout}\n${built.stderr}`);
    plane = await ApiPlane.start({ webDir });
    ({ context, ...browser } = await launchChromium('web', { viewport: { width: 1280, height: 800 } }));
    page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (m) => {
      if (m.type() === 'error' && !expectedConsole.test(m.text())) consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(`page error: ${e.message}`));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await plane?.stop();
    for (const dir of [webDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  afterEach(() => {
    expect(consoleErrors).toEqual([]);
  });

  it('serves the page without a token, with its security headers, and nothing outside its directory', async () => {
    const index = await fetch(`${plane.url}/ui/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = index.headers.get('content-security-policy');
    expect(csp).toContain("default-src 'self'");
    // The page runs no code from strings (the browser would refuse it; the console check below sees that).
    expect(csp).toContain("script-src 'self';");
    expect(await index.text()).toContain('<div id="root">');
    const root = await fetch(`${plane.url}/`, { redirect: 'manual' });
    expect([root.status, root.headers.get('location')]).toEqual([302, '/ui/']);
    expect((await fetch(`${plane.url}/ui/%2e%2e/%2e%2e/package.json`)).status).toBe(404);
    expect((await fetch(`${plane.url}/ui/no-such-file.js`)).status).toBe(404);
    // The API behind it still wants a token.
    expect((await fetch(`${plane.url}/api/v1/catalog/components`)).status).toBe(401);
  });

  it('signs in with the keyboard: a wrong token is refused, the right one opens the catalog', async () => {
    await page.goto(`${plane.url}/`);
    await page.locator('#token').waitFor();
    await shot('sign-in');
    await page.locator('#token').fill('not-the-token');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'That token is not valid' }).waitFor();
    await shot('sign-in-refused');
    await page.locator('#token').fill(ADMIN);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Component types' }).waitFor();
    await page.locator('.card', { hasText: 'webservice' }).first().waitFor();
    expect(await page.evaluate(() => (globalThis as any).sessionStorage.getItem('oam.token'))).toBe(ADMIN);
    expect(await page.evaluate(() => (globalThis as any).localStorage.length)).toBe(0);
    await shot('catalog', 'web-catalog.png');
    await accessible('catalog');
  });

  it('searches the catalog and shows a type’s parameters, nested fields indented, and its example', async () => {
    await page.getByPlaceholder('Search types').fill('hpa');
    await page.locator('.card h3', { hasText: /^webservice$/ }).waitFor({ state: 'detached' });
    await page.locator('.card h3', { hasText: /^hpa$/ }).waitFor();
    await shot('catalog-search');
    await page.getByPlaceholder('Search types').fill('');
    await page.locator('.card h3 a', { hasText: /^webservice$/ }).click();
    await page.getByRole('heading', { name: 'Parameters' }).waitFor();
    await page.locator('table.params tr[data-depth="1"]').first().waitFor();
    expect(await page.locator('table.params th code', { hasText: /^image$/ }).count()).toBe(1);
    await expect(page.getByLabel('Example properties of webservice').textContent()).resolves.toContain(
      'image:',
    );
    await shot('type-webservice');
    await accessible('type page');
  });

  it('creates a webservice with an HPA through the form; a wrong value shows its error at the field; preview shows the Deployment and the HPA', async () => {
    await page.getByRole('link', { name: 'Create an application with webservice' }).click();
    await page.locator('#app-name').fill(APP);
    await page.locator('#component-0_image').waitFor();
    await page.locator('#component-0-add-trait').selectOption('hpa');
    await page.getByRole('button', { name: 'Add trait' }).click();
    const min = page.locator('#component-0-hpa_min');
    // A trait that conflicts with one already chosen is marked in the list and on its block.
    await page
      .locator('#component-0-add-trait option[value="cpuscaler"]', { hasText: 'conflicts with hpa' })
      .waitFor({ state: 'attached' });
    await page.locator('#component-0-add-trait').selectOption('cpuscaler');
    await page.getByRole('button', { name: 'Add trait' }).click();
    await page.getByRole('alert').filter({ hasText: 'cpuscaler conflicts with hpa' }).waitFor();
    await shot('trait-conflict');
    await page.getByRole('button', { name: 'Remove trait cpuscaler' }).click();
    await page.getByRole('alert').filter({ hasText: 'conflicts with' }).waitFor({ state: 'detached' });
    await min.fill('0');
    // The YAML beside the form follows it as it is typed.
    await page
      .getByLabel('Application YAML', { exact: true })
      .filter({ hasText: /type: hpa[\s\S]*min: 0/ })
      .waitFor();
    await page.getByRole('button', { name: 'Preview' }).click();
    // The API's 422 names spec.components[0].traits[0].properties.min; the form shows it under that field.
    const minGroup = page.locator('.form-group', { has: page.locator('#component-0-hpa_min') });
    await minGroup.locator('.error-detail', { hasText: 'expected at least 1' }).waitFor();
    await page.getByRole('alert').filter({ hasText: 'Validation failed' }).waitFor();
    await shot('preview-field-error');
    await accessible('form with an error');

    await min.fill('1');
    await page.locator('#component-0-hpa_max').fill('3');
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.locator('summary', { hasText: 'Deployment' }).waitFor();
    await preview.locator('summary', { hasText: 'HorizontalPodAutoscaler' }).waitFor();
    expect(await minGroup.locator('.error-detail').count()).toBe(0);
    await shot('preview');
  });

  it('deploys, and the application turns healthy on screen without a reload', async () => {
    // A mark in the page's JavaScript state: still there at the end means the page never reloaded.
    await page.evaluate(() => ((globalThis as any).__notReloaded = true));
    await page.getByRole('button', { name: 'Deploy' }).click();
    await page.waitForURL(/#\/apps\/shop$/);
    const tree = page.getByLabel('Health tree');
    await tree.waitFor();
    await page.locator('h1 .health.ok').waitFor();
    await tree.locator('li[data-component="shop"] .health.ok').first().waitFor();
    await tree.getByText('HorizontalPodAutoscaler/shop').waitFor();
    expect(await page.evaluate(() => (globalThis as any).__notReloaded)).toBe(true);
    await shot('app-healthy', 'web-app-health.png');
    await accessible('application page');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Applications' }).click();
    const row = page.locator('tr[data-app="shop"]');
    await row.locator('.health.ok').waitFor();
    await expect(row.textContent()).resolves.toContain('shop (webservice)');
    await shot('app-list');
  });

  it('edits with the loaded resourceVersion: saved when current, a conflict is shown and nothing overwritten', async () => {
    await page.locator('tr[data-app="shop"] a').click();
    await page.getByRole('link', { name: 'Edit' }).click();
    const image = page.locator('#component-0_image');
    await expect(image.inputValue()).resolves.toBe('nginx:1.27');
    // Someone else changes it meanwhile: the save must be refused, not overwrite their change.
    const patched = await call(plane.url, 'PATCH', `/api/v1/namespaces/${NS}/applications/${APP}`, {
      token: ADMIN,
      body: { metadata: { labels: { owner: 'someone-else' } } },
      contentType: 'application/merge-patch+json',
    });
    expect(patched.status).toBe(200);
    await image.fill('nginx:1.28');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'Conflict' }).waitFor();
    await shot('edit-conflict');
    const stored = await call(plane.url, 'GET', `/api/v1/namespaces/${NS}/applications/${APP}`, {
      token: ADMIN,
    });
    expect(stored.body.spec.components[0].properties.image).toBe('nginx:1.27');
    expect(stored.body.metadata.labels).toEqual({ owner: 'someone-else' });

    // Load the latest and save again (should the controller write its status meanwhile, that is one more 409).
    await page.getByRole('button', { name: 'Load the latest version' }).click();
    await eventually(
      async () => {
        await page.locator('#component-0_image').fill('nginx:1.28');
        await page.getByRole('button', { name: 'Save' }).click();
        const outcome = await Promise.race([
          page.waitForURL(/#\/apps\/shop$/).then(() => 'saved'),
          page
            .getByRole('alert')
            .filter({ hasText: 'Conflict' })
            .waitFor()
            .then(() => 'conflict'),
        ]);
        if (outcome === 'conflict') await page.reload();
        return outcome === 'saved';
      },
      'the edit saved with the latest resourceVersion',
      120_000,
    );
    // The revision number depends on whether the controller rendered between the other
    // writer's label and this save (then the label is a revision of its own): find it by what
    // it says instead.
    await page
      .locator('tr[data-revision]', { hasText: 'nginx:1.28' })
      .filter({ hasText: 'current' })
      .waitFor();
    await page.locator('h1 .health.ok').waitFor();
    await shot('edited');
  });

  it('rolls back to the first revision from the page', async () => {
    await page.getByRole('button', { name: 'Roll back to v1' }).click();
    await page.getByRole('status').filter({ hasText: 'Rollback to v1 requested' }).waitFor();
    await page
      .locator('tr[data-revision]', { hasText: 'rollback to v1' })
      .filter({ hasText: 'current' })
      .waitFor()
      .catch(async (err: Error) => {
        const get = (p: string) =>
          call(plane.url, 'GET', `/api/v1/namespaces/${NS}/applications/${APP}${p}`, { token: ADMIN });
        const [app, revisions] = await Promise.all([get(''), get('/revisions')]);
        await shot('rollback-failed');
        throw new Error(
          `${err.message}\nannotations ${JSON.stringify(app.body.metadata.annotations)}\nstatus ${JSON.stringify(app.body.status)}\nrevisions ${JSON.stringify(revisions.body)}`,
        );
      });
    await eventually(
      async () => {
        const app = await call(plane.url, 'GET', `/api/v1/namespaces/${NS}/applications/${APP}`, {
          token: ADMIN,
        });
        return app.body.spec.components[0].properties.image === 'nginx:1.27';
      },
      'the Application back at nginx:1.27',
      60_000,
    );
    await page.locator('h1 .health.ok').waitFor();
    await shot('rolled-back');
  });

  it('deletes after a confirmation, and the list follows', async () => {
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Delete ${APP}?` });
    await dialog.waitFor();
    await shot('delete-confirm');
    // Cancel is focused first; Escape closes the dialog as well.
    await expect(page.evaluate(() => (globalThis as any).document.activeElement?.textContent)).resolves.toBe(
      'Cancel',
    );
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.getByRole('button', { name: `Delete ${APP}` }).click();
    await page.waitForURL(/#\/apps$/);
    await page.locator('tr[data-app="shop"]').waitFor({ state: 'detached' });
    await page.getByText(`No applications in ${NS} yet`).waitFor();
    await shot('deleted');
    await accessible('empty application list');
  });

  it('is readable on a narrow window: nothing wider than the screen', async () => {
    await page.setViewportSize({ width: 390, height: 800 });
    for (const hash of ['#/', '#/new?type=webservice']) {
      await page.goto(`${plane.url}/ui/${hash}`);
      await page.locator('main h1').waitFor();
      if (hash.includes('new')) await page.locator('#component-0_image').waitFor();
      const overflow = await page.evaluate(
        () => (globalThis as any).document.documentElement.scrollWidth - (globalThis as any).innerWidth,
      );
      expect({ hash, overflow }).toEqual({ hash, overflow: 0 });
      await shot(hash.includes('new') ? 'narrow-form' : 'narrow-catalog');
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('says so when the API is down', async () => {
    await page.goto(`${plane.url}/ui/#/`);
    await page.locator('.card').first().waitFor();
    await plane.api.stop();
    expectedConsole = /Failed to load resource: net::ERR_CONNECTION_REFUSED/;
    await page.getByPlaceholder('Search types').fill('web');
    await page.getByRole('alert').filter({ hasText: 'The API is not reachable' }).first().waitFor();
    await shot('api-down');
  });
});
