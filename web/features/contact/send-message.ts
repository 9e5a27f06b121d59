import { fieldErrors } from '../../../shared/schemas/auth';
import { ContactReceiptSchema, ContactSchema } from '../../../shared/schemas/contact';
import { ApiError, api } from '../../lib/api';

export type ContactResult =
  | { ok: true; message: string; formError?: undefined; fields?: undefined }
  | { ok?: undefined; message?: undefined; formError?: string; fields: Record<string, string> };

function readText(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === 'string' ? value : '';
}

/** The /contacto form, sent: checks it and hands the message to the operator. */
export async function sendMessage(request: Request): Promise<ContactResult> {
  const formData = await request.formData();
  const parsed = ContactSchema.safeParse({
    name: readText(formData, 'name'),
    email: readText(formData, 'email'),
    subject: readText(formData, 'subject'),
    message: readText(formData, 'message'),
  });
  if (!parsed.success) return { fields: fieldErrors(parsed.error) };

  try {
    const response = await api.post('/api/contact', ContactReceiptSchema, parsed.data);
    return { ok: true, message: response.message };
  } catch (err) {
    if (err instanceof ApiError) return { formError: err.message, fields: err.fields };
    throw err;
  }
}
