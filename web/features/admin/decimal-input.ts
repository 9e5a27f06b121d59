// Percentages and exchange rates as an admin types them («2,90», «1.045,50», «1045.5»), read
// into the API's dot-decimal text ("2.90", "1045.50"). Anything that does not read is sent as
// typed, so the API's own schema refuses it with its Spanish message.

/** «2,90» → "2.90"; «1.045,50» → "1045.50"; «1045.5» stays; «» stays empty. */
export function decimalForApi(text: string): string {
  const trimmed = text.trim().replace(/\s+/g, '').replace(/%$/, '');
  if (!trimmed.includes(',')) return trimmed;
  // A comma is the decimal mark: any dot before it groups thousands.
  const [whole = '', fraction, ...rest] = trimmed.split(',');
  if (rest.length > 0 || fraction === undefined) return text.trim();
  if (!/^\d{1,3}(\.\d{3})*$/.test(whole) && !/^\d+$/.test(whole)) return text.trim();
  return `${whole.replace(/\./g, '')}.${fraction}`;
}
