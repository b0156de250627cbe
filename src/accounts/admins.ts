// Admin accounts: the rules of docs/dashboard.md#admin-management (super_admin only,
// no self-delete, the last super_admin stays).
import { and, count, eq, ne, sql } from 'drizzle-orm'
import { admins, sessions } from '../../db/schema.ts'
import { msg } from '../contract/messages.ts'
import type { Db } from '../db/database.ts'
import { conflictOnUnique } from '../db/errors.ts'
import { AppError } from '../errors.ts'
import { type AdminView, adminColumns, toAdminView } from './admin-view.ts'
import { hashPassword } from './password.ts'

type Fields = { username?: string; email?: string }

/** `onChange` hears of every admin edited or deleted, after the change commits (cached sessions
 * must forget them). */
export function createAdminsService(db: Db, onChange: (adminId: string) => void = () => {}) {
  /**
   * 409 on the first field another admin already holds (case-insensitive). When two requests
   * race past this check, the unique index gives the same answer through conflictOnUnique.
   */
  async function assertUnique(fields: Fields, exceptId?: string) {
    for (const field of ['email', 'username'] as const) {
      const value = fields[field]
      if (!value) continue
      const column = admins[field]
      const [taken] = await db
        .select({ id: admins.id })
        .from(admins)
        .where(
          and(
            eq(sql`lower(${column})`, value.toLowerCase()),
            exceptId ? ne(admins.id, exceptId) : undefined,
          ),
        )
        .limit(1)
      if (taken) {
        throw new AppError(
          'CONFLICT',
          field === 'email' ? msg.emailTaken : msg.usernameTaken,
          field,
        )
      }
    }
  }

  async function find(id: string) {
    const [row] = await db.select(adminColumns).from(admins).where(eq(admins.id, id))
    if (!row) throw new AppError('NOT_FOUND', msg.adminNotFound)
    return row
  }

  return {
    async list(): Promise<AdminView[]> {
      const rows = await db.select(adminColumns).from(admins).orderBy(admins.createdAt, admins.id)
      return rows.map(toAdminView)
    },

    async create(input: { username: string; email: string; password: string }) {
      await assertUnique(input)
      const passwordHash = await hashPassword(input.password)
      const [row] = await db
        .insert(admins)
        .values({ username: input.username, email: input.email, passwordHash, role: 'admin' })
        .returning(adminColumns)
        .catch(conflictOnUnique)
      return toAdminView(row!)
    },

    /**
     * Only the given fields change. A new password or e-mail ends every session of that admin in
     * the same transaction (ASVS 7.4.3), except `keepSessionId`: the session of an admin who
     * changes their own credentials stays, their other ones end.
     */
    async update(id: string, input: Fields & { password?: string }, keepSessionId?: string) {
      await find(id)
      await assertUnique(input, id)
      const changes: Partial<typeof admins.$inferInsert> = { updatedAt: new Date() }
      if (input.username) changes.username = input.username
      if (input.email) changes.email = input.email
      if (input.password) changes.passwordHash = await hashPassword(input.password)
      const row = await db
        .transaction(async (tx) => {
          const [before] = await tx
            .select({ email: admins.email })
            .from(admins)
            .where(eq(admins.id, id))
            .for('update')
          if (!before) return undefined
          const [after] = await tx
            .update(admins)
            .set(changes)
            .where(eq(admins.id, id))
            .returning(adminColumns)
          const newEmail = input.email && input.email.toLowerCase() !== before.email.toLowerCase()
          if (input.password || newEmail) {
            await tx
              .delete(sessions)
              .where(
                and(
                  eq(sessions.userId, id),
                  keepSessionId ? ne(sessions.id, keepSessionId) : undefined,
                ),
              )
          }
          return after
        })
        .catch(conflictOnUnique)
      if (!row) throw new AppError('NOT_FOUND', msg.adminNotFound)
      onChange(id)
      return toAdminView(row)
    },

    async remove(id: string, actorId: string) {
      if (id === actorId) throw new AppError('FORBIDDEN', 'You cannot delete your own account')
      // One transaction and a row lock on every super_admin, so two deletes cannot both pass.
      return db
        .transaction(async (tx) => {
          const target = await tx
            .select({ role: admins.role })
            .from(admins)
            .where(eq(admins.id, id))
            .for('update')
          if (!target[0]) throw new AppError('NOT_FOUND', msg.adminNotFound)
          if (target[0].role === 'super_admin') {
            const supers = await tx
              .select({ id: admins.id })
              .from(admins)
              .where(eq(admins.role, 'super_admin'))
              .for('update')
            if (supers.length <= 1)
              throw new AppError('FORBIDDEN', 'The last super admin cannot be deleted')
          }
          await tx.delete(admins).where(eq(admins.id, id))
          return 1
        })
        .then((n) => {
          onChange(id)
          return n
        })
    },

    async isEmpty() {
      const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(admins)
      return n === 0
    },

    /** The first super_admin, named after the e-mail's local part (docs/limits.md rules). */
    async createFirstSuperAdmin(email: string, password: string) {
      const local = email.split('@')[0] ?? 'admin'
      const username = local
        .replace(/[^A-Za-z0-9_]/g, '_')
        .slice(0, 50)
        .padEnd(3, '_')
      await db.insert(admins).values({
        username,
        email,
        passwordHash: await hashPassword(password),
        role: 'super_admin',
      })
    },
  }
}

export type AdminsService = ReturnType<typeof createAdminsService>
