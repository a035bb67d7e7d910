// The webviews' English is the extension's: media/panel/*.js words its text with l10n.t (dom.js), which reads the
// bundle the extension put in the page (panelHtml.ts), so a language pack translates the panel and the audit as it
// translates the rest. A shown literal outside l10n.t fails here with its file and line.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { findShownLiterals } from './webviewLiterals';

const MEDIA = join(__dirname, '../../../../media/panel');

describe('l10n: the webviews show no bare English', () => {
  it('every word media/panel/*.js shows is an l10n.t message', () => {
    const files = readdirSync(MEDIA).filter((f) => f.endsWith('.js'));
    assert.deepEqual(files.sort(), ['audit.js', 'dom.js', 'panel.js', 'typeAhead.js']);
    const bare = files.flatMap((f) => findShownLiterals(f, readFileSync(join(MEDIA, f), 'utf8')));
    assert.deepEqual(
      bare.map((b) => `${b.file}:${b.line} ${b.text}`),
      [],
      "word these with l10n.t('… {0} …', value)",
    );
  });

  it('the check finds each way English is shown, and passes messages, names and values', () => {
    const bad = `
      el('p', 'Nothing yet');
      el('span', \`\${n} shown\`, 'badge ok');
      el('span', x, 'badge', { title: 'all passed', 'aria-label': ok ? 'passed' : 'failed' });
      $('summary').textContent = 'Running';
      b.setAttribute('aria-label', 'Delivery actions');
      kvTable([['latency', ms], [l10n.t('status'), s]]);
      const note = ok ? '' : 'refused before verification';
      action(l10n.t('Copy'), 'copy-curl', 'The token is read from the environment');
    `;
    assert.deepEqual(
      findShownLiterals('bad.js', bad).map((b) => `${b.line} ${b.text}`),
      [
        '2 Nothing yet',
        '3 … shown',
        '4 all passed',
        '4 passed',
        '4 failed',
        '5 Running',
        '6 Delivery actions',
        '7 latency',
        '8 refused before verification',
        '9 The token is read from the environment',
      ],
    );
    const good = `
      const l10n = window.wfsL10n;
      el('p', l10n.t('Nothing yet'), 'empty note', { role: 'status', 'data-id': id });
      el('span', l10n.t('{0} shown of {1}', a, b), \`row\${sel ? ' selected' : ''}\`);
      document.querySelectorAll('#list script, #detail img');
      if (e.key === 'ArrowDown' || e.key === 'PageUp') list.addEventListener('keydown', f);
      vscode.postMessage({ type: 'action', action: 'replay-local', id });
      kvTable([['webhookId', v], ['runId', r]]);
      x.className = 'row selected';
      switch (m.type) { case 'paused-count': break; }
      el('h2', \`\${d.method} \${d.path} → \${s}\`);
      l10n.t('The token is read from {0}', '$WFS_WEBHOOK_TOKEN');
    `;
    assert.deepEqual(findShownLiterals('good.js', good), []);
  });
});
