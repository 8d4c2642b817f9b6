import { colorsFor } from './colors.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * Live progress while `oam up` waits. On a terminal (with colours allowed):
 * one spinner line, redrawn in place. In a pipe or with NO_COLOR: plain
 * lines, each printed only when it changes, so logs stay short and free of
 * escape codes.
 */
export class Progress {
  private readonly live: boolean;
  private readonly last = new Map<string, string>();
  private spinnerText = '';
  private frame = 0;
  private timer?: ReturnType<typeof setInterval>;

  constructor(private readonly stream: NodeJS.WriteStream = process.stdout) {
    this.live = Boolean(stream.isTTY) && !('NO_COLOR' in process.env) && process.env.TERM !== 'dumb';
  }

  /** A permanent line (cleared spinner first). */
  say(line: string): void {
    this.clear();
    this.stream.write(`${line}\n`);
    this.draw();
  }

  /**
   * The state of one thing being waited for. Live: it joins the spinner line;
   * plain: printed when it differs from what was printed for `key` last.
   */
  update(states: { key: string; text: string }[]): void {
    if (this.live) {
      this.spinnerText = states.map((s) => s.text).join('  ·  ');
      if (!this.timer) {
        this.timer = setInterval(() => {
          this.frame = (this.frame + 1) % FRAMES.length;
          this.draw();
        }, 100);
        this.timer.unref();
      }
      this.draw();
      return;
    }
    for (const { key, text } of states) {
      if (this.last.get(key) === text) continue;
      this.last.set(key, text);
      this.stream.write(`  ${text}\n`);
    }
  }

  /**
   * What is going on between permanent lines (rendering, starting the plane):
   * on a terminal the spinner with `text`, so the screen never looks stuck;
   * nothing in a pipe. Undefined clears it.
   */
  activity(text: string | undefined): void {
    if (!this.live) return;
    if (text === undefined) return this.stop();
    this.update([{ key: 'activity', text }]);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.clear();
    this.spinnerText = '';
  }

  private draw(): void {
    if (!this.live || !this.spinnerText) return;
    const pc = colorsFor(this.stream);
    const width = this.stream.columns ?? 100;
    const text =
      this.spinnerText.length > width - 3 ? `${this.spinnerText.slice(0, width - 4)}…` : this.spinnerText;
    this.stream.write(`\r\x1b[2K${pc.cyan(FRAMES[this.frame])} ${text}`);
  }

  private clear(): void {
    if (this.live && this.spinnerText) this.stream.write('\r\x1b[2K');
  }
}
