// Credit lines in the back office (docs/domain.md §3): a customer's limit and who owes what.
import {
  CreditLimitFormSchema,
  CreditLimitResultSchema,
  DebtorListSchema,
  type CreditLimitResult,
} from '../../../shared/schemas/credit';
import { api, ApiError } from '../../lib/api';
import { parseValues, type FormResult } from '../../lib/form-data';

export type CreditActionResult = FormResult & {
  intent: 'credit-limit';
  credit?: CreditLimitResult;
};

export function fetchDebtors() {
  return api.get('/api/admin/debts', DebtorListSchema);
}

/** The customer page's «Crédito» form: PUT /api/admin/users/:id/credit-limit. */
export async function saveCreditLimit(
  userId: string,
  formData: FormData,
): Promise<CreditActionResult> {
  const amount = formData.get('amount');
  const parsed = parseValues(CreditLimitFormSchema, {
    amount: typeof amount === 'string' ? amount : '',
  });
  if ('error' in parsed) return { ...parsed.error, intent: 'credit-limit' };
  try {
    const credit = await api.put(
      `/api/admin/users/${encodeURIComponent(userId)}/credit-limit`,
      CreditLimitResultSchema,
      { amount: parsed.data.amount },
    );
    return { ok: true, intent: 'credit-limit', credit };
  } catch (err) {
    if (err instanceof ApiError && err.status < 500)
      return {
        intent: 'credit-limit',
        ...(Object.keys(err.fields).length > 0
          ? { fields: err.fields }
          : { formError: err.message }),
      };
    throw err;
  }
}
