// Each command's synopsis, the first lines of its --help, names every flag it takes: a flag missing there is one a
// user reading the usage line never learns of.
import assert from 'node:assert/strict';
import { auditCommand } from '../../../src/cli/commands/auditCommand';
import { findCommand } from '../../../src/cli/commands/findCommand';
import { listenCommand } from '../../../src/cli/commands/listenCommand';
import { mcpCommand } from '../../../src/cli/commands/mcpCommand';
import { sandboxCommand } from '../../../src/cli/commands/sandboxCommand';
import { startCommand } from '../../../src/cli/commands/startCommand';
import { statusCommand } from '../../../src/cli/commands/statusCommand';
import { testWebhookCommand } from '../../../src/cli/commands/testWebhookCommand';

/** Flags left out of a synopsis on purpose: --help everywhere, and listen's --no-tunnel, the default, kept only for
 * scripts written before --tunnel. */
const UNLISTED = new Set(['help', 'no-tunnel']);

describe('wfs command synopses', () => {
  for (const command of [
    sandboxCommand,
    startCommand,
    statusCommand,
    findCommand,
    testWebhookCommand,
    listenCommand,
    auditCommand,
    mcpCommand,
  ]) {
    it(`wfs ${command.name}: the synopsis names every flag`, () => {
      const missing = Object.keys(command.flags).filter(
        (f) => !UNLISTED.has(f) && !new RegExp(`--${f}\\b(?!-)`).test(command.synopsis),
      );
      assert.deepEqual(missing, []);
    });
  }
});
