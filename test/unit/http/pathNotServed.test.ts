// A 404 without a problem document names what to change, never a fix already applied (issue 69, point 4).
import assert from 'node:assert/strict';
import { pathNotServedAdvice } from '../../../src/core/http/pathNotServed';
import { SIGN_IN_PATH, WORKFLOW_ROOT } from '../../../src/core/http/paths';

const CLI = { baseUrl: 'WFS_BASE_URL', testWebhookUrl: 'WFS_TEST_WEBHOOK_URL' };

describe('pathNotServedAdvice', () => {
  it('sign-in on an origin that is not the service: says so, and never suggests adding a context root', () => {
    const a = pathNotServedAdvice('sign-in', `http://127.0.0.1:4020${SIGN_IN_PATH}`, CLI);
    assert.match(
      a,
      /^http:\/\/127\.0\.0\.1:4020\/user-management-services-ws\/oauth2\/002\/signInWithPassword answered 404/,
    );
    assert.match(a, /so this address is not the Workflow Service/);
    assert.match(a, /Set WFS_BASE_URL to the service's own address/);
    assert.doesNotMatch(a, /lacks|add \/workflow-services-ws/);
  });

  it('a base URL that carries a service path: set it to the origin alone', () => {
    const a = pathNotServedAdvice('sign-in', `http://127.0.0.1:4020/workflow-services-ws${SIGN_IN_PATH}`, CLI);
    assert.match(a, /WFS_BASE_URL ends in the path \/workflow-services-ws/);
    assert.match(a, /set WFS_BASE_URL to http:\/\/127\.0\.0\.1:4020 alone\.$/);
    const start = pathNotServedAdvice('start', `https://svc.test/api/${WORKFLOW_ROOT}/sessions/s/workflows`);
    assert.match(start, /the environment's base URL ends in the path \/api\//);
  });

  it('a workflow path on the address that signed in: the sign-in worked there, check the base URL', () => {
    const a = pathNotServedAdvice('read', `https://svc.test${WORKFLOW_ROOT}/workflows/wf_1`, CLI);
    assert.match(a, /workflow API is not there, though the sign-in worked at this address/);
    assert.match(a, /Check WFS_BASE_URL/);
  });

  it('the test endpoint names its own variable', () => {
    const a = pathNotServedAdvice('test-webhook', 'http://127.0.0.1:4020/test-webhook', CLI);
    assert.match(a, /webhook test endpoint is not there/);
    assert.match(a, /Set WFS_TEST_WEBHOOK_URL/);
  });
});
