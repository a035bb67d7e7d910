// A refused `wfs start` in the CLI's words. A well-formed start refused with 400 VALIDATION_ERROR means the product did
// not resolve: the products the environment knows are asked for (a local sandbox lists its own through its control
// API, with WFS_SANDBOX_SECRET) and the nearest suggested as flags. The spec has no endpoint that lists products, so
// against the service there is nothing to ask.
import { isLoopbackHost, ValidationError } from '../core/http';
import { SandboxControlClient } from '../core/sandbox';
import { type Product, productRefusalAdvice } from '../core/workflows';

/** Rethrows `err`; a product that did not resolve as a ValidationError whose message suggests the nearest products. */
export async function explainStartRefusal(
  err: unknown,
  asked: Product,
  baseUrl: string,
  env: NodeJS.ProcessEnv,
): Promise<never> {
  if (!(err instanceof ValidationError) || err.code !== 'VALIDATION_ERROR') throw err;
  const url = new URL(baseUrl);
  const localSandbox = url.protocol === 'http:' && isLoopbackHost(url.hostname);
  const secret = env.WFS_SANDBOX_SECRET;
  let known: { products: Product[]; from: string } | undefined;
  // Only a sandbox on this machine is asked: the secret never goes to another address.
  if (localSandbox && secret)
    known = await new SandboxControlClient(baseUrl, secret)
      .products()
      .then((products) => ({ products, from: `The sandbox at ${url.origin}` }))
      .catch(() => undefined);
  let advice = productRefusalAdvice(asked, known, (p) => `--service ${p.service} --model ${p.model}`);
  if (!known && localSandbox && !secret)
    advice += ` For the products of the sandbox at ${url.origin}, set WFS_SANDBOX_SECRET to its controlSecret (its first line prints it).`;
  throw new ValidationError('validation', advice, {
    status: err.status,
    code: err.code,
    correlationId: err.correlationId,
    serverText: err.serverText,
    billed: err.billed,
  });
}
