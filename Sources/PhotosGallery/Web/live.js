// Follows the library's changes as Server-Sent Events (/v1/changes) from
// the token the gallery started at. The browser's EventSource resumes with
// Last-Event-ID after a dropped connection, so nothing is missed; when the
// stream ends for good (the server restarted, the token expired), it is
// reopened from the last token seen, and from the current one (after a
// full reload of what is shown) when that token is no longer kept.
import { getData } from './api.js';

export class ChangeStream {
  /** `onChange(change)` for each change; `onReset()` when history was lost and everything must be re-read. */
  constructor({ onChange, onReset, onState }) {
    this.onChange = onChange;
    this.onReset = onReset;
    this.onState = onState ?? (() => {});
    this.token = null;
    this.source = null;
    this.retry = 0;
  }

  /** Starts from the library's current token. */
  async start() {
    const page = await getData('/v1/changes?limit=1');
    this.token = page.token;
    this.open();
  }

  open() {
    this.source?.close();
    const source = new EventSource('/v1/changes?since=' + encodeURIComponent(this.token));
    this.source = source;
    source.addEventListener('open', () => {
      this.retry = 0;
      this.onState('live');
    });
    source.addEventListener('change', (event) => {
      this.token = event.lastEventId || this.token;
      this.onChange(JSON.parse(event.data));
    });
    source.addEventListener('error', () => {
      this.onState('reconnecting');
      if (source.readyState === EventSource.CLOSED) this.reopen();
    });
  }

  /** The stream was refused: resume from the last token, or start over if it expired. */
  async reopen() {
    this.source?.close();
    const delay = Math.min(30_000, 500 * 2 ** Math.min(this.retry++, 6));
    await new Promise((resolve) => setTimeout(resolve, delay));
    try {
      await getData('/v1/changes?limit=1&since=' + encodeURIComponent(this.token));
    } catch (error) {
      if (error.status === 410 || error.status === 400) {
        await this.start().catch(() => this.reopen());
        this.onReset();
        return;
      }
      if (error.status === 401) return; // the session ended; the gallery goes back to sign-in
      this.reopen();
      return;
    }
    this.open();
  }

  stop() {
    this.source?.close();
    this.source = null;
  }
}
