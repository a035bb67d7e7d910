// The service's edge refuses values "resembling SQL injection or cross-site scripting" with an HTML 403
// before the service is reached (spec: Errors, 403 edge). The sandbox applies these patterns, and the client
// refuses such values locally so a user learns why instead of meeting an opaque HTML page.
import { said } from '../presentation/said';
import { LocalValidationError } from './serviceErrors';

const RULES: { name: string; pattern: RegExp }[] = [
  { name: 'SQL tautology', pattern: /'\s*(or|and)\s+('|\d|true\b)/i },
  { name: 'SQL UNION SELECT', pattern: /\bunion\b\s+(all\s+)?select\b/i },
  { name: 'SQL statement chaining', pattern: /;\s*(drop|delete|insert|update|alter|truncate|exec)\b/i },
  { name: 'SQL comment after quote', pattern: /'\s*(--|#|\/\*)/ },
  { name: 'script tag', pattern: /<\s*\/?\s*script\b/i },
  { name: 'HTML element with active content', pattern: /<\s*(img|iframe|svg|object|embed|body|link|meta)\b/i },
  { name: 'inline event handler', pattern: /\bon(error|load|click|mouseover|focus|blur|submit|change|input)\s*=/i },
  { name: 'javascript: URL', pattern: /javascript\s*:/i },
];

/** The name of the rule the value breaks, or undefined when the edge would let it through. */
export function edgeViolation(value: string): string | undefined {
  for (const r of RULES) if (r.pattern.test(value)) return r.name;
  return undefined;
}

/** Refuses, before sending, a value the service's edge would refuse, naming the rule. */
export function checkOutgoingValue(field: string, value: string): void {
  const rule = edgeViolation(value);
  if (rule)
    throw new LocalValidationError(
      'edge-refused-value',
      said(
        "{0} looks like {1}; the service's edge would refuse the request with an HTML 403. Base64-encode such a value or choose another.",
        field,
        rule,
      ),
    );
}
