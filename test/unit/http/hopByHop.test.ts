import assert from 'node:assert/strict';
import { forwardableHeaders } from '../../../src/core/http/hopByHop';

describe('forwardableHeaders (forwarding and replay)', () => {
  it('drops connection-scoped headers, Proxy-Authorization among them, and those the new request computes', () => {
    const out = forwardableHeaders({
      host: 'public.example',
      'content-length': '12',
      connection: 'keep-alive, X-Hop',
      'keep-alive': 'timeout=5',
      'proxy-authorization': 'Basic <redacted, 20 characters>',
      te: 'trailers',
      'transfer-encoding': 'chunked',
      'x-hop': 'named by Connection',
      'content-type': 'application/json',
      'x-svc-topic': 'workflow/completed',
      'X-Mixed-Case': 'kept',
      'x-multi': ['a', 'b'],
      absent: undefined,
    });
    assert.deepEqual(out, {
      'content-type': 'application/json',
      'x-svc-topic': 'workflow/completed',
      'x-mixed-case': 'kept',
      'x-multi': 'a, b',
    });
  });
});
