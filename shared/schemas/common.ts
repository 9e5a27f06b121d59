import { z } from 'zod';

// Wire formats shared by the response schemas (the API's output, as the server writes it).

/** An amount of US dollars as JSON carries it: a decimal string with two places ("1.50"). */
export const MoneySchema = z.string().regex(/^\d+\.\d{2}$/);

/** A customer's balance: like MoneySchema, with a minus while they owe on credit ("-12.50"). */
export const BalanceSchema = z.string().regex(/^-?\d+\.\d{2}$/);

/** A decimal amount with up to six places ("0.27819"), as supplier costs and balances come. */
export const DecimalSchema = z.string().regex(/^-?\d+\.\d{2,6}$/);

/** A signed amount of a statement line: "+25.00" credits, "-3.00" debits. */
export const SignedMoneySchema = z.string().regex(/^[+-]\d+\.\d{2}$/);

/** A moment in time as the server writes it: ISO 8601 in UTC ("2026-05-01T10:00:00.000Z"). */
export const DateTimeSchema = z.iso.datetime();
