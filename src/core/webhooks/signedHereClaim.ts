// The claim that marks a token this toolkit signed on request (a replay, a new event, a fixture, `wfs send`), as
// against a delivery the service (or the sandbox playing it) made. It is inside the signature, so only the holder
// of the signing key can set it, and the service never does. A receiver records such a delivery as signed here and
// keeps its webhookId out of the service's duplicate set: a copy signed here must not make the service's own retry
// of the same event look like a duplicate (or the app would never see the real one).
export const SIGNED_HERE_CLAIM = 'wfs_signed_here';

/** The claims to add to a token signed on request. */
export function signedHereClaims(): Record<string, unknown> {
  return { [SIGNED_HERE_CLAIM]: true };
}

/** Whether verified claims carry the mark. */
export function claimsSignedHere(claims: Record<string, unknown> | undefined): boolean {
  return claims?.[SIGNED_HERE_CLAIM] === true;
}
