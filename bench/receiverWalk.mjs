// The walk of one verified delivery through the receiver: each function of ours it enters, in order, from the
// request's arrival to the answer the sender reads (key cached, no forward, history in memory). It counts the stops,
// the files, and the returns: entering again a file the walk had left. The source is compiled with a call at the
// start of every function, then one delivery is sent over loopback to a Receiver to fetch the key, and a second,
// the one walked.
//   node bench/receiverWalk.mjs [REV ...]   (no REV: the working tree; each REV: that commit's src/, by git archive)
import { execFileSync } from 'node:child_process';
import { createHash, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const ts = require('typescript');

/** Every .ts file under dir, compiled to CommonJS beside it in out, with a walk call at each function's start. */
function compileWalked(srcRoot, out) {
  const files = [];
  const walkDir = (d) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walkDir(p);
      else if (p.endsWith('.ts')) files.push(p);
    }
  };
  walkDir(join(srcRoot, 'src'));
  for (const file of files) {
    const rel = relative(srcRoot, file);
    if (file.endsWith('.d.ts')) continue;
    const result = ts.transpileModule(readFileSync(file, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
      fileName: file,
      transformers: { before: [walkCalls(rel.replace(/^src\//, ''))] },
    });
    const target = join(out, rel.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, result.outputText);
  }
  copyFileSync(join(srcRoot, 'package.json'), join(out, 'package.json'));
}

/** A transformer putting `globalThis.__walk?.(file, name)` first in every function body with one. */
function walkCalls(file) {
  return (context) => {
    const f = context.factory;
    const call = (name) =>
      f.createExpressionStatement(
        f.createCallChain(
          f.createPropertyAccessExpression(f.createIdentifier('globalThis'), '__walk'),
          f.createToken(ts.SyntaxKind.QuestionDotToken),
          undefined,
          [f.createStringLiteral(file), f.createStringLiteral(name)],
        ),
      );
    const nameOf = (node, sf) => {
      if (node.name && ts.isIdentifier(node.name)) return node.name.text;
      if (node.name) return node.name.getText(sf);
      if (ts.isConstructorDeclaration(node)) return 'constructor';
      const p = node.parent;
      if (p && ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
      if (p && ts.isPropertyDeclaration(p) && p.name) return p.name.getText(sf);
      if (p && ts.isPropertyAssignment(p)) return p.name.getText(sf);
      const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
      return `(anonymous, line ${line})`;
    };
    return (sf) => {
      const visit = (node) => {
        const functionLike =
          ts.isFunctionDeclaration(node) ||
          ts.isMethodDeclaration(node) ||
          ts.isConstructorDeclaration(node) ||
          ts.isGetAccessorDeclaration(node) ||
          ts.isSetAccessorDeclaration(node) ||
          ts.isFunctionExpression(node) ||
          ts.isArrowFunction(node);
        const name = functionLike && node.body ? nameOf(node, sf) : undefined;
        node = ts.visitEachChild(node, visit, context);
        if (name === undefined) return node;
        const first = call(name);
        if (ts.isBlock(node.body)) {
          // A constructor's super() call stays first: the walk call goes right after it.
          const stmts = [...node.body.statements];
          const superAt = stmts.findIndex(
            (s) =>
              ts.isExpressionStatement(s) &&
              ts.isCallExpression(s.expression) &&
              s.expression.expression.kind === ts.SyntaxKind.SuperKeyword,
          );
          stmts.splice(superAt + 1, 0, first);
          const body = f.updateBlock(node.body, stmts);
          if (ts.isArrowFunction(node))
            return f.updateArrowFunction(
              node,
              node.modifiers,
              node.typeParameters,
              node.parameters,
              node.type,
              node.equalsGreaterThanToken,
              body,
            );
          return replaceBody(f, node, body);
        }
        // An arrow with an expression body: a block that makes the call, then returns the expression.
        return f.updateArrowFunction(
          node,
          node.modifiers,
          node.typeParameters,
          node.parameters,
          node.type,
          node.equalsGreaterThanToken,
          f.createBlock([first, f.createReturnStatement(node.body)], false),
        );
      };
      return ts.visitNode(sf, visit);
    };
  };
}

function replaceBody(f, node, body) {
  if (ts.isFunctionDeclaration(node))
    return f.updateFunctionDeclaration(
      node,
      node.modifiers,
      node.asteriskToken,
      node.name,
      node.typeParameters,
      node.parameters,
      node.type,
      body,
    );
  if (ts.isMethodDeclaration(node))
    return f.updateMethodDeclaration(
      node,
      node.modifiers,
      node.asteriskToken,
      node.name,
      node.questionToken,
      node.typeParameters,
      node.parameters,
      node.type,
      body,
    );
  if (ts.isConstructorDeclaration(node))
    return f.updateConstructorDeclaration(node, node.modifiers, node.parameters, body);
  if (ts.isGetAccessorDeclaration(node))
    return f.updateGetAccessorDeclaration(node, node.modifiers, node.name, node.parameters, node.type, body);
  if (ts.isSetAccessorDeclaration(node))
    return f.updateSetAccessorDeclaration(node, node.modifiers, node.name, node.parameters, body);
  return f.updateFunctionExpression(
    node,
    node.modifiers,
    node.asteriskToken,
    node.name,
    node.typeParameters,
    node.parameters,
    node.type,
    body,
  );
}

/** Sends one signed delivery; resolves with the status once the answer is read. */
function send(url, authorization, body) {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', authorization } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function walkOf(label, srcRoot) {
  const out = join(root, 'out', 'walk', label.replace(/[^A-Za-z0-9]/g, '_'));
  rmSync(out, { recursive: true, force: true });
  compileWalked(srcRoot, out);
  const { Receiver } = require(join(out, 'src/core/webhooks/Receiver.js'));
  const { Verifier } = require(join(out, 'src/core/webhooks/Verifier.js'));
  const { SystemClock } = require(join(out, 'src/core/time/clock.js'));

  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'k', alg: 'RS256', use: 'sig' };
  const keySet = createServer((_q, r) =>
    r.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })),
  );
  await new Promise((r) => keySet.listen(0, '127.0.0.1', r));
  const trust = {
    issuer: 'https://walk.invalid/webhooks',
    audience: 'walk-receiver',
    jwksUrl: `http://127.0.0.1:${keySet.address().port}/jwks.json`,
  };
  const clock = new SystemClock();
  const receiver = new Receiver({ verifier: new Verifier({ issuers: [trust], clock }), clock });
  const url = await receiver.start();
  const delivery = () => {
    const body = JSON.stringify({
      webhookId: randomUUID(),
      topic: 'workflow/completed',
      subTopic: 'event:workflow/completed',
      tenantId: 'walk',
      triggeredAt: '2026-11-22T10:00:00.1234567Z',
      actorId: 'act_walk',
      data: { runId: 'wfrun_1' },
    });
    const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const input = `${b64({ alg: 'RS256', typ: 'JWT', kid: 'k' })}.${b64({ iss: trust.issuer, aud: trust.audience, iat: now, exp: now + 300, body_sha256: createHash('sha256').update(body).digest('hex') })}`;
    return [`Bearer ${input}.${sign('RSA-SHA256', Buffer.from(input), privateKey).toString('base64url')}`, body];
  };
  if ((await send(url, ...delivery())) !== 200)
    throw new Error('the first delivery (the key fetched) was not answered 200');
  const stops = [];
  const next = delivery();
  globalThis.__walk = (file, name) => stops.push(`${file} ${name}`);
  const status = await send(url, ...next);
  globalThis.__walk = undefined;
  if (status !== 200) throw new Error(`the walked delivery was answered ${status}`);
  await receiver.stop();
  keySet.close();
  rmSync(out, { recursive: true, force: true });

  const fileOf = (s) => s.slice(0, s.indexOf(' '));
  const files = new Set(stops.map(fileOf));
  let returns = 0;
  const left = new Set();
  for (let i = 1; i < stops.length; i++) {
    const [from, to] = [fileOf(stops[i - 1]), fileOf(stops[i])];
    if (from === to) continue;
    left.add(from);
    if (left.has(to)) returns++;
  }
  const inReceiver = stops.filter((s) => fileOf(s) === 'core/webhooks/Receiver.ts').length;
  return { label, stops: stops.length, returns, inReceiver, files: files.size, fileList: [...files], walk: stops };
}

const revs = process.argv.slice(2);
const results = [];
if (revs.length === 0) results.push(await walkOf('working tree', root));
for (const rev of revs) {
  const dir = join(root, 'out', 'walk-src', rev.replace(/[^A-Za-z0-9]/g, '_'));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git -C "${root}" archive "${rev}" src package.json | tar -x -C "${dir}"`]);
  results.push(await walkOf(rev, dir));
  rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify(results, null, 1));
