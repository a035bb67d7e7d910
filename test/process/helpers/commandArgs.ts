// Argument lists of `wfs` commands that many process tests run the same way; a test appends what it is about.
import type { SandboxProcess } from './wfsProcess';

/** `wfs start` in the sandbox's staged session, with the product every sandbox offers. */
export const startArgs = (s: SandboxProcess): string[] => [
  'start',
  '--session',
  s.info.sessions.staged,
  '--service',
  'Appraisal',
  '--model',
  'Standard',
];

/** `wfs test-webhook` to `address`, with a topic, sub-topic and tenant that the process tests send and none of them
 * checks. */
export const testWebhookArgs = (address: string): string[] => [
  'test-webhook',
  '--address',
  address,
  '--topic',
  'workflow/completed',
  '--sub-topic',
  'status:workflow/completed',
  '--tenant-id',
  't1',
];
