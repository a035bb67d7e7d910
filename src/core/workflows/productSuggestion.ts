// A start refused with 400 VALIDATION_ERROR, when the request was well formed: the product did not resolve. The spec
// lists no endpoint that names the products (they are "supplied out of band"), so the products come from whoever
// knows them: a sandbox (its control API), or an environment's settings. With them, the nearest are suggested.
import { editDistance } from '../presentation';
import type { Product } from './workflowTypes';

/** The products nearest to the one asked for, best first (at most three): a typo in the service, the model or both,
 * letter case, or the two swapped. None when nothing is near. */
export function suggestProducts(asked: Product, known: readonly Product[]): Product[] {
  const s = asked.service.trim().toLowerCase();
  const m = asked.model.trim().toLowerCase();
  const scored = known.map((p) => {
    const ps = p.service.toLowerCase();
    const pm = p.model.toLowerCase();
    const straight = editDistance(s, ps) + editDistance(m, pm);
    const swapped = editDistance(s, pm) + editDistance(m, ps);
    return { p, d: Math.min(straight, swapped) };
  });
  // A third of the letters asked for, at least two: "Apraisal Standrd" is near, "Flood Desktop" is not.
  const limit = Math.max(2, Math.floor((s.length + m.length) / 3));
  return scored
    .filter((x) => x.d <= limit)
    .sort((a, b) => a.d - b.d)
    .slice(0, 3)
    .map((x) => x.p);
}

/** The words for the refusal: what was asked for, what is near, and every product known (or where to learn them). */
export function productRefusalAdvice(
  asked: Product,
  known: { products: readonly Product[]; from: string } | undefined,
  flags: (p: Product) => string = (p) => `service ${p.service}, model ${p.model}`,
): string {
  const head = `The service refused the start (400 VALIDATION_ERROR): the product ${asked.service} ${asked.model} does not resolve to a product this account may order (the request was otherwise well formed: both service and model, no terms field, a short correlationId). Nothing was started or billed.`;
  if (!known)
    return `${head} Check the spelling of the service and model against the products your account was given; sending it again unchanged returns the same 400.`;
  const near = suggestProducts(asked, known.products);
  const all = known.products.map((p) => `${p.service} ${p.model}`).join(', ');
  if (near.length) return `${head} Did you mean ${near.map(flags).join(', or ')}? (${known.from} knows: ${all})`;
  return `${head} ${known.from} knows: ${all}.`;
}
