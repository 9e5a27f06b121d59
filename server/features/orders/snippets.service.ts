import { recordAudit } from '../audit/audit.service';
import { and, asc, eq } from 'drizzle-orm';
import type { SnippetDto, SnippetKind, SnippetList } from '../../../shared/schemas/admin-desk';
import { RejectOrderSchema } from '../../../shared/schemas/orders';
import type { Db } from '../../db/client';
import { adminSnippet } from '../../db/schema/desk';
import { AppError } from '../../lib/errors';

type Row = typeof adminSnippet.$inferSelect;

function toDto(r: Row): SnippetDto {
  return {
    id: r.id,
    kind: r.kind as SnippetKind,
    title: r.title,
    body: r.body,
    position: r.position,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** Every saved text, by kind and position (the queue's pickers). */
export async function listSnippets(db: Db, kind?: SnippetKind): Promise<SnippetList> {
  const rows = await db
    .select()
    .from(adminSnippet)
    .where(kind ? eq(adminSnippet.kind, kind) : undefined)
    .orderBy(asc(adminSnippet.kind), asc(adminSnippet.position), asc(adminSnippet.createdAt));
  return { items: rows.map(toDto) };
}

export async function createSnippet(
  db: Db,
  input: { kind: SnippetKind; title: string; body: string; position?: number },
  actorId: string,
): Promise<SnippetDto> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(adminSnippet)
      .values({ ...input, position: input.position ?? 0 })
      .returning();
    if (!row) throw new AppError('INTERNAL');
    const dto = toDto(row);
    await recordAudit(tx, {
      actorId,
      action: 'snippet.create',
      targetType: 'snippet',
      targetId: row.id,
      after: { kind: dto.kind, title: dto.title, body: dto.body },
    });
    return dto;
  });
}

export async function updateSnippet(
  db: Db,
  id: string,
  patch: { title?: string; body?: string; position?: number },
  actorId: string,
): Promise<SnippetDto> {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select()
      .from(adminSnippet)
      .where(eq(adminSnippet.id, id))
      .for('update');
    if (!found) throw new AppError('NOT_FOUND', 'El texto guardado no existe.');
    // A reason must still be one an order can be rejected with.
    if (patch.body !== undefined && found.kind === 'reject_reason') {
      const checked = RejectOrderSchema.shape.reason.safeParse(patch.body);
      if (!checked.success) {
        const message = checked.error.issues[0]?.message ?? 'Texto no válido.';
        throw new AppError('VALIDATION_FAILED', message, { body: message });
      }
    }
    const [row] = await tx
      .update(adminSnippet)
      .set({ ...patch, updatedAt: new Date() })
      .where(and(eq(adminSnippet.id, id)))
      .returning();
    if (!row) throw new AppError('NOT_FOUND', 'El texto guardado no existe.');
    await recordAudit(tx, {
      actorId,
      action: 'snippet.update',
      targetType: 'snippet',
      targetId: id,
      before: { title: found.title, body: found.body, position: found.position },
      after: { title: row.title, body: row.body, position: row.position },
    });
    return toDto(row);
  });
}

export async function deleteSnippet(db: Db, id: string, actorId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const gone = await tx.delete(adminSnippet).where(eq(adminSnippet.id, id)).returning();
    const row = gone[0];
    if (!row) throw new AppError('NOT_FOUND', 'El texto guardado no existe.');
    await recordAudit(tx, {
      actorId,
      action: 'snippet.delete',
      targetType: 'snippet',
      targetId: id,
      before: { kind: row.kind, title: row.title, body: row.body },
    });
  });
}
