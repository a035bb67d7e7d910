// What a refused request keeps of its body: a copy of its prefix, never cut inside a character.
import assert from 'node:assert/strict';
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import {
  BodiesInFlight,
  keptPrefix,
  readCapped,
  type BodyLost,
  type HashedBody,
} from '../../../src/core/webhooks/requestBody';

describe('keptPrefix', () => {
  for (const [name, ch] of [
    ['two-byte', 'é'],
    ['three-byte', '€'],
    ['four-byte', '😀'],
  ] as const) {
    it(`stops before a ${name} character the cut would split, and keeps text UTF-8`, () => {
      const size = Buffer.byteLength(ch);
      for (let lead = 0; lead < size; lead++) {
        const body = Buffer.from('a'.repeat(lead) + ch.repeat(10));
        for (let keep = 1; keep < body.length; keep++) {
          const kept = keptPrefix(body, body.length, keep);
          assert.ok(isUtf8(kept), `${name}, ${lead} leading bytes, ${keep} kept`);
          assert.ok(kept.length <= keep && kept.length > keep - size, `${kept.length} of ${keep}`);
          assert.ok(body.subarray(0, kept.length).equals(kept));
        }
      }
    });
  }

  it('keeps a body shorter than the prefix whole, even when it is not UTF-8', () => {
    const body = Buffer.from([0x61, 0xc3]);
    assert.deepEqual([...keptPrefix(body, body.length, 4096)], [0x61, 0xc3]);
  });

  it('keeps bytes that are not UTF-8 as they are, cut at the prefix', () => {
    const body = Buffer.alloc(10, 0xff);
    assert.equal(keptPrefix(body, body.length, 4).length, 4);
  });

  it('is its own copy, not a view holding the larger chunk alive', () => {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const kept = keptPrefix(chunk, chunk.length, 4096);
    assert.notEqual(kept.buffer, chunk.buffer);
  });
});

describe('BodiesInFlight', () => {
  it('takes bytes up to its limit and no further; what is given back can be taken again', () => {
    const b = new BodiesInFlight(100);
    assert.equal(b.take(60), true);
    assert.equal(b.take(41), false);
    assert.equal(b.held, 60);
    assert.equal(b.take(40), true);
    b.give(60);
    assert.equal(b.take(60), true);
    assert.equal(b.held, 100);
  });
});

describe('readCapped hashes the body it holds', () => {
  const chunks = [Buffer.from('{"webhookId":"a","note":"é '), Buffer.from('✓"}'), Buffer.alloc(70_000, 0xff)];
  const whole = Buffer.concat(chunks);
  const expected = createHash('sha256').update(whole).digest('hex');

  /** The body read from a request that sends chunks, through readCapped as `read` has it. */
  function bodyRead(read: typeof readCapped): HashedBody | BodyLost {
    const req = Object.assign(new EventEmitter(), { headers: {} }) as unknown as IncomingMessage;
    let result: HashedBody | BodyLost | undefined;
    read(req, 1024 * 1024, new BodiesInFlight(1024 * 1024), { held: 0 }, (body) => (result = body));
    for (const c of chunks) req.emit('data', c);
    req.emit('end');
    assert.ok(result !== undefined, 'done was called');
    return result;
  }

  it('its SHA-256 in lower-case hex, its size, and every byte kept', () => {
    const body = bodyRead(readCapped) as HashedBody;
    assert.deepEqual([body.sha256, body.size, body.kept.equals(whole)], [expected, whole.length, true]);
  });

  it('gives the same digest where Node has no crypto.hash (before 20.12, as in older VS Code)', () => {
    const crypto = require('node:crypto') as { hash?: unknown };
    const modulePath = require.resolve('../../../src/core/webhooks/requestBody');
    const hash = crypto.hash;
    assert.equal(typeof hash, 'function', 'this Node has crypto.hash: the test removes it');
    delete require.cache[modulePath];
    crypto.hash = undefined;
    try {
      const fresh = (require(modulePath) as { readCapped: typeof readCapped }).readCapped;
      assert.notEqual(fresh, readCapped, 'a fresh copy of the module, made without crypto.hash');
      assert.equal((bodyRead(fresh) as HashedBody).sha256, expected);
    } finally {
      crypto.hash = hash;
      delete require.cache[modulePath];
    }
  });
});
