/** `wfs test-webhook` to `address`, with a topic, sub-topic and tenant that the process tests send and none of them
 * checks (a test that needs more, such as `--data`, appends it). */
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
