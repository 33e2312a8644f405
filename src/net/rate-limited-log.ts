// One log line per event, but not a flood of them: during a burst (a port scan, a connection
// flood) the first line is written at once and the others are counted and summed up in one
// line at the end of the window.

const WINDOW_MS = 10_000;

export class RateLimitedLog {
  private suppressed = 0;
  private last = '';
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly write: (line: string) => void,
    private readonly windowMs = WINDOW_MS,
  ) {}

  note(line: string): void {
    if (this.timer) {
      this.suppressed++;
      this.last = line;
      return;
    }
    this.write(line);
    this.timer = setTimeout(() => this.flush(), this.windowMs).unref();
  }

  private flush(): void {
    this.timer = undefined;
    if (this.suppressed === 0) return;
    this.write(`${this.last} (${this.suppressed} such in the last ${this.windowMs / 1000} s, this is the latest)`);
    this.suppressed = 0;
  }
}
