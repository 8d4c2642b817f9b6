/** Container resource requests must not exceed limits (core/validation ValidateResourceRequirements). */
import { type FieldCause, invalid } from '../field-errors.js';
import { asObj } from './meta-checks.js';

const QUANTITY = /^([+-]?(?:\d+\.?\d*|\.\d+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/;

const MULTIPLIERS: Record<string, number> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

/** The numeric value of a resource.Quantity string (or number), or undefined when it does not parse. */
export function quantityValue(quantity: unknown): number | undefined {
  if (typeof quantity === 'number') return quantity;
  if (typeof quantity !== 'string') return undefined;
  const match = QUANTITY.exec(quantity);
  if (!match) return undefined;
  const [, number, suffix] = match;
  if (!suffix) return Number(number);
  if (/^[eE]/.test(suffix)) return Number(number) * 10 ** Number(suffix.slice(1));
  return Number(number) * MULTIPLIERS[suffix];
}

export function validateResources(resources: unknown, base: string): FieldCause[] {
  const { requests, limits } = asObj(resources);
  const causes: FieldCause[] = [];
  for (const [name, request] of Object.entries(asObj(requests))) {
    const requested = quantityValue(request);
    if (requested !== undefined && requested < 0) {
      causes.push(
        invalid(`${base}.requests[${name}]`, String(request), 'must be greater than or equal to 0'),
      );
    }
    const limit = asObj(limits)[name];
    const limited = quantityValue(limit);
    if (requested !== undefined && limited !== undefined && requested > limited) {
      causes.push(
        invalid(
          `${base}.requests`,
          String(request),
          `must be less than or equal to ${name} limit of ${String(limit)}`,
        ),
      );
    }
  }
  return causes;
}
