// The only shape in which an admin leaves the server: never the password hash.
import { admins } from '../../db/schema.ts'
import type { Role } from '../contract/admin.ts'

export const adminColumns = {
  id: admins.id,
  username: admins.username,
  email: admins.email,
  role: admins.role,
  createdAt: admins.createdAt,
}

export type AdminView = {
  _id: string
  username: string
  email: string
  role: Role
  createdAt: string
}

export function toAdminView(row: {
  id: string
  username: string
  email: string
  role: Role
  createdAt: Date
}): AdminView {
  return {
    _id: row.id,
    username: row.username,
    email: row.email,
    role: row.role,
    createdAt: row.createdAt.toISOString(),
  }
}
