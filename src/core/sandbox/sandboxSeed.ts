// The sandbox's seeded data. The service lists none of this through an endpoint (spec: "supplied out of band").

export interface SandboxProduct {
  service: string;
  model: string;
  /** Whether the account may order it; an unentitled product is refused with 403. */
  entitled: boolean;
  /** Whether reconfirm becomes available once the workflow completes (spec: "depends on the product"). */
  reconfirmable: boolean;
  /** The end state the workflow reaches. */
  outcome: 'complete' | 'failed';
}

export const SANDBOX_PRODUCTS: SandboxProduct[] = [
  { service: 'Appraisal', model: 'Standard', entitled: true, reconfirmable: true, outcome: 'complete' },
  { service: 'Appraisal', model: 'Desktop', entitled: true, reconfirmable: false, outcome: 'complete' },
  { service: 'Flood', model: 'Certification', entitled: true, reconfirmable: false, outcome: 'complete' },
  { service: 'Verification', model: 'Employment', entitled: true, reconfirmable: false, outcome: 'failed' },
  { service: 'Credit', model: 'TriMerge', entitled: false, reconfirmable: false, outcome: 'complete' },
];

export const SANDBOX_USERNAME = 'demo';
export const SANDBOX_PASSWORD = 'demo-password';
export const SANDBOX_TENANT = 'tenant-sandbox';
export const STAGED_SESSION_ID = 'sess-demo-staged';
export const EMPTY_SESSION_ID = 'sess-demo-empty';
export const SANDBOX_ISSUER = 'https://sandbox.workflow-service.invalid/webhooks';
export const SANDBOX_AUDIENCE = 'workflow-service-toolkit';

export const DEMO_LOAN = {
  loanNumber: 'DEMO-000123',
  borrower: { firstName: 'Ada', lastName: 'Example' },
  property: { street: '1 Sample Way', city: 'Springfield', state: 'IL', postalCode: '62701' },
  amount: 250000,
};

/** Resolves a free-text selector case-insensitively to a seeded product, returning the canonical spelling. */
export function resolveProduct(service: string, model: string): SandboxProduct | undefined {
  const s = service.trim().toLowerCase();
  const m = model.trim().toLowerCase();
  return SANDBOX_PRODUCTS.find((p) => p.service.toLowerCase() === s && p.model.toLowerCase() === m);
}
