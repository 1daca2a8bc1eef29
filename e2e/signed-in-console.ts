// A journey fails when a signed-in session's browser reports a problem the journey did not expect:
// a console error, an uncaught exception, a request that failed, or an answer of 400 or more to a
// signed-in call. A seller's console is where a broken call shows first, and a console full of
// expected-looking failures hides the one that is not.
import { test as base, type ConsoleMessage, type Page, type Request, type Response } from '@playwright/test';

export interface SignedInConsole {
  /** Lets problems whose text matches through: what this journey makes happen on purpose. */
  expect(...patterns: RegExp[]): void;
  /** Lets a refusal through that the journey asks for: `status` answered to a call to `path`. */
  expectAnswer(path: string, status: number): void;
}

/**
 * Requests that were never answered for a reason that is no fault of the app: the page gave up on
 * them (it was left, a stream was closed), or the journey took the network away
 * (context.setOffline) to see the app cope, and the browser reports each request it could not send.
 */
const UNSENT = ['net::ERR_ABORTED', 'net::ERR_INTERNET_DISCONNECTED'];

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A page is signed in while the last call its api client made carried the seller's token. */
function isApiCall(request: Request): boolean {
  return ['fetch', 'xhr'].includes(request.resourceType()) && new URL(request.url()).pathname.startsWith('/api/');
}

function pageOf(request: Request): Page | null {
  if (request.serviceWorker()) return null;
  try {
    return request.frame().page();
  } catch {
    return null;
  }
}

export const test = base.extend<{ signedInConsole: SignedInConsole }>({
  signedInConsole: [
    async ({ context }, use, testInfo) => {
      const signedIn = new WeakSet<Page>();
      const expected: RegExp[] = [];
      const problems: string[] = [];
      const note = (page: Page | null, problem: string) => {
        if (page && !signedIn.has(page)) return;
        if (expected.some((pattern) => pattern.test(problem))) return;
        problems.push(`${page ? new URL(page.url()).pathname : 'service worker'}: ${problem}`);
      };

      const onRequest = (request: Request) => {
        const page = pageOf(request);
        if (!page || !isApiCall(request)) return;
        if (request.headers().authorization?.startsWith('Bearer ')) signedIn.add(page);
        else signedIn.delete(page);
      };
      const onResponse = (response: Response) => {
        const request = response.request();
        if (response.status() < 400 || !request.headers().authorization) return;
        note(pageOf(request), `${request.method()} ${new URL(request.url()).pathname} answered ${response.status()}`);
      };
      const onRequestFailed = (request: Request) => {
        const reason = request.failure()?.errorText ?? '';
        if (UNSENT.includes(reason)) return;
        note(pageOf(request), `${request.method()} ${new URL(request.url()).pathname} failed: ${reason}`);
      };
      const onConsole = (message: ConsoleMessage) => {
        if (message.type() !== 'error' || UNSENT.some((reason) => message.text().endsWith(reason))) return;
        const where = message.location().url;
        note(message.page(), `console error: ${message.text()}${where ? ` (${where})` : ''}`);
      };
      const onPage = (page: Page) => page.on('pageerror', (error) => note(page, `uncaught: ${error.message}`));

      context.on('request', onRequest);
      context.on('response', onResponse);
      context.on('requestfailed', onRequestFailed);
      context.on('console', onConsole);
      context.on('page', onPage);
      for (const page of context.pages()) onPage(page);

      await use({
        expect: (...patterns) => expected.push(...patterns),
        // The answer as noted above, and Chromium's own console line for it.
        expectAnswer: (path, status) =>
          expected.push(
            new RegExp(`^[A-Z]+ ${escaped(path)} answered ${status}$`),
            new RegExp(`^console error: Failed to load resource: the server responded with a status of ${status} .*\\(https?://[^/]+${escaped(path)}(\\?[^)]*)?\\)$`),
          ),
      });

      context.off('request', onRequest);
      context.off('response', onResponse);
      context.off('requestfailed', onRequestFailed);
      context.off('console', onConsole);
      context.off('page', onPage);
      // A journey that failed already says why; these would only bury it.
      if (problems.length > 0 && testInfo.status === testInfo.expectedStatus) {
        throw new Error(`The signed-in browser reported problems this journey does not expect:\n${problems.join('\n')}`);
      }
    },
    { auto: true },
  ],
});

export { expect } from '@playwright/test';
