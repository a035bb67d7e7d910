// GET /healthz on the sandbox (a container's healthcheck), a given control secret, and the key set named as the
// client reached the sandbox (http://sandbox:4010 from another container, not its own loopback).
import assert from 'node:assert/strict';
import { Sandbox } from '../../../src/core/sandbox/Sandbox';
import { keySetAsReached } from '../../../src/core/sandbox/sandboxControlClient';
import { givenSecretProblem } from '../../../src/core/sandbox/sandboxAccess';
import { rawRequest } from '../helpers/rawHttp';

describe('sandbox /healthz', () => {
  it('answers 200 once it serves, with no secret, and is not a request event; a foreign Host gets 421', async () => {
    const sandbox = new Sandbox({ allowedHosts: ['sandbox'] });
    const info = await sandbox.start();
    const paths: string[] = [];
    sandbox.on('request', (e) => paths.push(`${e.path} ${e.status}`));
    const health = `${info.baseUrl}/healthz`;
    const ok = await rawRequest(health, { headers: { host: 'sandbox:4010' } });
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.json(), { status: 'ok', service: 'sandbox' });
    assert.equal((await rawRequest(health)).status, 200);
    assert.equal((await rawRequest(health, { headers: { host: 'rebinding.example' } })).status, 421);
    assert.equal(
      (await rawRequest(health, { headers: { origin: 'https://page.example' } })).status,
      403,
      'a web page is refused there as everywhere',
    );
    await sandbox.stop();
    assert.deepEqual(paths, ['/healthz 421', '/healthz 403'], 'only the refused ones are request lines');
  });

  it('with healthWaitsForReady: 503 while serving until markReady(), then 200', async () => {
    const sandbox = new Sandbox({ healthWaitsForReady: true });
    const info = await sandbox.start();
    const health = `${info.baseUrl}/healthz`;
    const before = await rawRequest(health);
    assert.equal(before.status, 503);
    assert.deepEqual(before.json().status, 'starting');
    assert.equal((await rawRequest(`${info.baseUrl}/.well-known/jwks.json`)).status, 200, 'it serves meanwhile');
    sandbox.markReady();
    assert.equal((await rawRequest(health)).status, 200);
    await sandbox.stop();
  });

  it('takes a given control secret in place of a new one', async () => {
    const secret = 'a'.repeat(64);
    const sandbox = new Sandbox({ controlSecret: secret });
    assert.equal((await sandbox.start()).controlSecret, secret);
    await sandbox.stop();
    assert.equal(givenSecretProblem(secret), undefined);
    assert.match(givenSecretProblem('short')!, /holds 5 characters: .*at least 32.*openssl rand -hex 32/);
  });
});

describe('keySetAsReached', () => {
  const own = 'http://127.0.0.1:4010';
  it('names the key set by the address the client reached the sandbox at, when that is not loopback', () => {
    assert.equal(
      keySetAsReached('http://sandbox:4010', own, `${own}/.well-known/jwks.json`),
      'http://sandbox:4010/.well-known/jwks.json',
    );
    assert.equal(
      keySetAsReached('http://sandbox:4010/', own, `${own}/.well-known/jwks.json`),
      'http://sandbox:4010/.well-known/jwks.json',
    );
  });
  it('keeps it as the sandbox gave it otherwise', () => {
    const jwks = `${own}/.well-known/jwks.json`;
    assert.equal(keySetAsReached('http://localhost:4010', own, jwks), jwks, 'reached on loopback');
    assert.equal(keySetAsReached('http://sandbox:4010', undefined, jwks), jwks, 'an older sandbox without baseUrl');
    assert.equal(
      keySetAsReached('http://sandbox:4010', own, 'https://keys.example/jwks.json'),
      'https://keys.example/jwks.json',
      'a key set elsewhere',
    );
    const remote = 'https://sandbox.example.com';
    assert.equal(keySetAsReached('http://sandbox:4010', remote, `${remote}/jwks`), `${remote}/jwks`, 'not loopback');
  });
});
