// What an account leaves in Better Auth's `verification` table, and the record Cometa adds there
// (the last accepted TOTP step). The identifiers are Better Auth 1.7's: reset links
// (`reset-password:<token>`, value = account id), trusted devices (`trust-device-…`, value =
// account id), pending second factors (`2fa-…` and `2fa-attempts-2fa-…`), e-mail and SMS codes
// (`<type>-otp-<address>`, `phone-number-otp-<number>`), e-mail links and provider states (JSON
// naming the address or the account id).
import { sql } from 'drizzle-orm';
import { queryRows, type Db, type Tx } from '../db/client';

/** A TOTP step (RFC 6238) lasts this long; Better Auth accepts the current one and each neighbour. */
export const TOTP_STEP_SECONDS = 30;

function totpStepKey(userId: string): string {
  return `totp-step-${userId}`;
}

/**
 * Records `step` as the account's newest accepted TOTP step, atomically: true when it is newer
 * than the one recorded, false otherwise (that code, or an older one, was already used). Of two
 * requests with the same code, one gets true. The row outlives every code of its step.
 */
export async function claimTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const key = totpStepKey(userId);
  const expiresAt = new Date((step + 3) * TOTP_STEP_SECONDS * 1000).toISOString();
  const rows = await queryRows<{ id: string }>(
    db,
    sql`
    INSERT INTO verification (id, identifier, value, expires_at)
    VALUES (${key}, ${key}, ${String(step)}, ${expiresAt}::timestamptz)
    ON CONFLICT (id) DO UPDATE
      SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at, updated_at = now()
      WHERE verification.value::bigint < EXCLUDED.value::bigint
    RETURNING id`,
  );
  return rows.length > 0;
}

/** Ends the account's trusted devices: the next sign-in on any of them asks for the second factor. */
export async function endTrustedDevices(db: Db | Tx, userId: string): Promise<void> {
  await db.execute(
    sql`DELETE FROM verification WHERE identifier LIKE 'trust-device-%' AND value = ${userId}`,
  );
}

/**
 * Deletes every pending token of the account (links, codes, trusted devices, pending second
 * factors, provider-linking states, the TOTP step), so none of them works once it is deleted.
 * `email` and `phoneNumber` are the account's before it is anonymised.
 */
export async function deletePendingTokens(
  db: Db | Tx,
  owner: { id: string; email: string; phoneNumber: string | null },
): Promise<void> {
  const email = owner.email.toLowerCase();
  const identifiers = [
    `sign-in-otp-${email}`,
    `email-verification-otp-${email}`,
    `forget-password-otp-${email}`,
    totpStepKey(owner.id),
    ...(owner.phoneNumber
      ? [`phone-number-otp-${owner.phoneNumber}`, `phone-number-reset-${owner.phoneNumber}`]
      : []),
  ];
  // JSON values (e-mail links, provider states) name the address or the account as a string.
  const emailInJson = `"email":${JSON.stringify(email)}`;
  const idInJson = `"userId":${JSON.stringify(owner.id)}`;
  await db.execute(sql`
    WITH gone AS (
      DELETE FROM verification
      WHERE value = ${owner.id}
         OR identifier IN (${sql.join(
           identifiers.map((i) => sql`${i}`),
           sql`, `,
         )})
         OR starts_with(identifier, ${`change-email-otp-${owner.id}:`})
         OR strpos(lower(value), ${emailInJson}) > 0
         OR strpos(value, ${idInJson}) > 0
      RETURNING identifier
    )
    DELETE FROM verification
    WHERE identifier IN (SELECT '2fa-attempts-' || identifier FROM gone)`);
}
