import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A headless Chromium driven over the DevTools protocol (a WebSocket, Node's own): enough to
 * load a page at a given viewport, evaluate expressions in it, press keys and take screenshots.
 * No browser driver package: the protocol's few calls here are all the desk tests need.
 */
export class Browser {
  private id = 0;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly listeners = new Set<(method: string, params: unknown) => void>();

  private constructor(
    private readonly child: ChildProcess,
    private readonly socket: WebSocket,
    private readonly profile: string,
  ) {
    socket.addEventListener('message', (event) => {
      const msg = JSON.parse(String(event.data)) as {
        id?: number;
        result?: unknown;
        error?: { message: string };
        method?: string;
        params?: unknown;
      };
      if (msg.id !== undefined) {
        const p = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        if (msg.error) p?.reject(new Error(msg.error.message));
        else p?.resolve(msg.result);
      } else if (msg.method) for (const l of this.listeners) l(msg.method, msg.params);
    });
  }

  static async launch(chromium: string): Promise<Browser> {
    const profile = mkdtempSync(join(tmpdir(), 'doppel-cdp-'));
    const child = spawn(
      chromium,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--hide-scrollbars',
        '--no-first-run',
        '--remote-debugging-port=0',
        `--user-data-dir=${profile}`,
        'about:blank',
      ],
      { stdio: 'ignore' },
    );
    const portFile = join(profile, 'DevToolsActivePort');
    const deadline = Date.now() + 30_000;
    while (!existsSync(portFile) || readFileSync(portFile, 'utf8').split('\n').length < 2) {
      if (Date.now() > deadline) throw new Error('chromium did not open its DevTools port');
      await new Promise((r) => setTimeout(r, 100));
    }
    const port = Number(readFileSync(portFile, 'utf8').split('\n')[0]);
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{
      type: string;
      webSocketDebuggerUrl: string;
    }>;
    const page = targets.find((t) => t.type === 'page');
    if (!page) throw new Error('chromium has no page target');
    const socket = new WebSocket(page.webSocketDebuggerUrl);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('open', () => resolve(), { once: true });
      socket.addEventListener('error', () => reject(new Error('DevTools WebSocket failed')), { once: true });
    });
    const browser = new Browser(child, socket, profile);
    await browser.send('Page.enable');
    await browser.send('Runtime.enable');
    return browser;
  }

  send<T = unknown>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = ++this.id;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** The viewport, as a phone (touch, mobile) when `mobile`. */
  async viewport(width: number, height: number, mobile: boolean): Promise<void> {
    await this.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile });
  }

  private waitFor(method: string, timeoutMs = 20_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(new Error(`no ${method} within ${timeoutMs} ms`));
      }, timeoutMs);
      const listener = (m: string) => {
        if (m !== method) return;
        clearTimeout(timer);
        this.listeners.delete(listener);
        resolve();
      };
      this.listeners.add(listener);
    });
  }

  async goto(url: string): Promise<void> {
    const loaded = this.waitFor('Page.loadEventFired');
    await this.send('Page.navigate', { url });
    await loaded;
  }

  async reload(): Promise<void> {
    const loaded = this.waitFor('Page.loadEventFired');
    await this.send('Page.reload');
    await loaded;
  }

  /** The value of an expression in the page (awaited when it is a promise). */
  async eval<T>(expression: string): Promise<T> {
    const r = await this.send<{ result: { value: T }; exceptionDetails?: { text: string } }>(
      'Runtime.evaluate',
      {
        expression,
        awaitPromise: true,
        returnByValue: true,
      },
    );
    if (r.exceptionDetails) throw new Error(`${expression}: ${JSON.stringify(r.exceptionDetails)}`);
    return r.result.value;
  }

  /** Waits until `expression` is truthy in the page. */
  async until(expression: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await this.eval<boolean>(`Boolean(${expression})`))) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${expression}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** A key pressed and released on the focused element (key names as KeyboardEvent.key). */
  async press(key: string): Promise<void> {
    const named: Record<string, { code: string; keyCode: number }> = {
      Enter: { code: 'Enter', keyCode: 13 },
      Escape: { code: 'Escape', keyCode: 27 },
      ArrowDown: { code: 'ArrowDown', keyCode: 40 },
      ArrowUp: { code: 'ArrowUp', keyCode: 38 },
    };
    const info = named[key] ?? { code: `Key${key.toUpperCase()}`, keyCode: key.toUpperCase().charCodeAt(0) };
    const text = key.length === 1 ? key : key === 'Enter' ? '\r' : undefined;
    const base = { key, code: info.code, windowsVirtualKeyCode: info.keyCode, ...(text ? { text } : {}) };
    await this.send('Input.dispatchKeyEvent', { type: text ? 'keyDown' : 'rawKeyDown', ...base });
    await this.send('Input.dispatchKeyEvent', { type: 'keyUp', ...base });
  }

  async screenshot(): Promise<Buffer> {
    const r = await this.send<{ data: string }>('Page.captureScreenshot', { format: 'png' });
    return Buffer.from(r.data, 'base64');
  }

  async close(): Promise<void> {
    try {
      await this.send('Browser.close');
    } catch {}
    this.socket.close();
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    if (this.child.exitCode === null) {
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(this.profile, { recursive: true, force: true });
  }
}
