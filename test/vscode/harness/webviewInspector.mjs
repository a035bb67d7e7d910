// Lets the extension-host tests read a webview's DOM as the user sees it, instead of asking the extension: a
// loopback HTTP server in the harness process that evaluates an expression in the webview frame holding a given
// element, through the same Playwright page that shows the workbench. The URL reaches the extension host in
// WFS_TEST_WEBVIEW_URL (code-server passes its environment on). POST /evaluate reads; POST /press also clicks and
// presses keys first. A request with `axe` (and no expression) runs axe-core's WCAG scan there (axeRun.mjs).
// Test infrastructure only; nothing ships.
import { createServer } from 'node:http';
import { axeExpression } from './axeRun.mjs';

export async function startWebviewInspector() {
  let page;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const answer = (status, body) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      try {
        if (!page) return answer(503, { error: 'no page yet' });
        const request = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const { has, until, timeoutMs = 15_000 } = request;
        const expression = request.axe ? axeExpression(request.axe.include) : request.expression;
        const deadline = Date.now() + timeoutMs;
        // A webview whose HTML is set again (a report run anew) replaces its frame: one read mid-way fails with
        // "Frame was detached", and the frames are searched again until the deadline.
        let lastError;
        for (;;) {
          // Webviews are nested iframes; the one that holds `has` is the panel's document.
          for (const frame of page.frames()) {
            let holds = false;
            try {
              holds = (await frame.$(has)) !== null;
            } catch {
              continue; // a frame navigating away
            }
            if (!holds) continue;
            try {
              // Polled with evaluate (CDP, which the webview's CSP allows), not waitForFunction (which needs eval).
              while (until && !(await frame.evaluate(until))) {
                if (Date.now() > deadline)
                  return answer(408, {
                    error: `the webview never showed ${until}; it shows: ${await frame.evaluate(() => document.body.innerText.slice(0, 400))}`,
                  });
                await page.waitForTimeout(50);
              }
              // /press: real key presses, as a user types them: a click on `click` (real focus, also across the
              // webview's frames), then each of `keys` through Playwright's keyboard, then the expression.
              if (req.url === '/press') {
                if (request.click) await frame.click(request.click);
                for (const key of request.keys ?? []) await page.keyboard.press(key);
              }
              return answer(200, { value: await frame.evaluate(expression) });
            } catch (err) {
              if (!frame.isDetached()) throw err;
              lastError = err;
            }
          }
          if (Date.now() > deadline)
            return answer(404, {
              error: `no webview frame holds ${has}${lastError ? ` (the last one was replaced: ${lastError.message})` : ''}`,
            });
          await page.waitForTimeout(50);
        }
      } catch (err) {
        answer(500, { error: String(err?.message ?? err) });
      }
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    setPage: (p) => (page = p),
    stop: () => new Promise((r) => server.close(r)),
  };
}
