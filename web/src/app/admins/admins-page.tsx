// Admin Management (docs/dashboard.md): list, create, optimistic edit, delete. Super admins only:
// the route's beforeLoad shows NotAllowed to anyone else (router.tsx), as the page does on a 403.
import { useState } from 'react'
import type { FieldValues, UseFormSetError } from 'react-hook-form'
import type { Admin } from '../../api.ts'
import { Dialog } from '../components/dialog.tsx'
import { NotAllowed } from '../components/not-allowed.tsx'
import { PageHeader } from '../components/page-header.tsx'
import { QueryState } from '../components/query-state.tsx'
import { columnsOf, TableHead } from '../components/table-head.tsx'
import { Button, Card, IconButton, Icons } from '../components/ui.tsx'
import { toClientError } from '../lib/errors.ts'
import { notify } from '../lib/notify.ts'
import { trpc } from '../trpc.ts'
import { CreateAdminForm, EditAdminForm, showAdminError } from './admin-forms.tsx'

export const ADMINS_STALE_MS = 5 * 60 * 1000
const FIELDS = ['username', 'email', 'password'] as const

type Modal = { kind: 'create' } | { kind: 'edit'; admin: Admin } | { kind: 'delete'; admin: Admin }

export function AdminsPage() {
  const utils = trpc.useUtils()
  const admins = trpc.admins.list.useQuery(undefined, { staleTime: ADMINS_STALE_MS })
  const [modal, setModal] = useState<Modal | null>(null)
  const [deleting, setDeleting] = useState(false)
  const create = trpc.admins.create.useMutation()
  const remove = trpc.admins.delete.useMutation()
  const update = trpc.admins.update.useMutation({
    // Optimistic: the list changes at once and is rolled back on error (docs/dashboard.md).
    onMutate: async ({ id, username, email }) => {
      await utils.admins.list.cancel()
      const previous = utils.admins.list.getData()
      utils.admins.list.setData(undefined, (old) =>
        old
          ? {
              ...old,
              admins: old.admins.map((a) =>
                a._id === id
                  ? {
                      ...a,
                      ...(typeof username === 'string' && username ? { username } : {}),
                      ...(typeof email === 'string' && email ? { email } : {}),
                    }
                  : a,
              ),
            }
          : old,
      )
      return { previous }
    },
    onError: (_err, _input, context) => {
      if (context?.previous) utils.admins.list.setData(undefined, context.previous)
    },
    onSuccess: () => utils.admins.list.invalidate(),
  })

  const close = () => setModal(null)

  if (admins.isError && toClientError(admins.error).kind === 'forbidden') return <NotAllowed />

  /** A form's submit: the change, then its toast and the dialog closed; else the form says why. */
  const submitting =
    <V, F extends FieldValues>(step: {
      run: (values: V) => Promise<unknown>
      done: string
      /** After the toast, before the dialog closes. */
      refresh?: () => Promise<unknown>
      failed: string
    }) =>
    async (values: V, setError: UseFormSetError<F>) => {
      try {
        await step.run(values)
        notify.success(step.done)
        await step.refresh?.()
        close()
      } catch (err) {
        showAdminError(err, setError, FIELDS, step.failed)
      }
    }

  const confirmDelete = async (admin: Admin) => {
    setDeleting(true)
    try {
      await remove.mutateAsync({ id: admin._id })
      notify.success('Admin deleted successfully')
      await utils.admins.list.invalidate()
      close()
    } catch (err) {
      notify.error(toClientError(err).message || 'Failed to delete admin')
    } finally {
      setDeleting(false)
    }
  }

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title="Admin Management" crumb="Admin Management" />
      <Card className="p-4 sm:p-5">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <div>
            <h2 className="font-semibold text-xl">Admins List</h2>
            <p className="text-sm text-zinc-500 dark:text-zinc-400">Manage your admin users</p>
          </div>
          <Button onClick={() => setModal({ kind: 'create' })}>
            <Icons.plus className="size-4" /> Add New Admin
          </Button>
        </div>
        <QueryState query={admins} loading="Loading admins">
          {(data) => (
            <AdminList
              admins={data.admins ?? []}
              onEdit={(admin) => setModal({ kind: 'edit', admin })}
              onDelete={(admin) => setModal({ kind: 'delete', admin })}
            />
          )}
        </QueryState>
      </Card>

      {modal?.kind === 'create' ? (
        <Dialog title="Create New Admin" onClose={close}>
          <CreateAdminForm
            onCancel={close}
            onSubmit={submitting({
              run: (values) => create.mutateAsync(values),
              done: 'Admin created successfully',
              refresh: () => utils.admins.list.invalidate(),
              failed: 'Failed to create admin',
            })}
          />
        </Dialog>
      ) : null}

      {modal?.kind === 'edit' ? (
        <Dialog title="Edit Admin" onClose={close}>
          <EditAdminForm
            admin={modal.admin}
            onCancel={close}
            onSubmit={submitting({
              run: (values) => update.mutateAsync({ id: modal.admin._id, ...values }),
              done: 'Admin updated successfully',
              failed: 'Failed to update admin',
            })}
          />
        </Dialog>
      ) : null}

      {modal?.kind === 'delete' ? (
        <Dialog
          role="alertdialog"
          size="sm"
          title="Delete Admin"
          description="Are you sure you want to delete this admin? This action cannot be undone."
          onClose={() => (deleting ? undefined : close())}
        >
          <div className="flex justify-end gap-3 px-5 py-4">
            <Button variant="secondary" onClick={close} disabled={deleting} data-autofocus>
              Cancel
            </Button>
            <Button
              variant="danger"
              onClick={() => void confirmDelete(modal.admin)}
              disabled={deleting}
            >
              {deleting ? 'Deleting...' : 'Delete'}
            </Button>
          </div>
        </Dialog>
      ) : null}
    </div>
  )
}

const actionBase =
  'inline-flex items-center justify-center gap-2 rounded-lg text-sm font-medium focus-visible:outline-2 focus-visible:outline-amber-500'
const cardAction = 'min-h-11 px-3 border border-zinc-200 dark:border-ink-700'

function AdminList({
  admins,
  onEdit,
  onDelete,
}: {
  admins: Admin[]
  onEdit: (admin: Admin) => void
  onDelete: (admin: Admin) => void
}) {
  if (admins.length === 0) {
    return <p className="p-6 text-center text-zinc-500">No admins yet.</p>
  }
  // 44 px targets (WCAG 2.5.5) in the table and on the cards.
  const neutralAction = 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-200 dark:hover:bg-ink-800'
  const dangerAction = 'text-red-700 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-950'
  const actions = (admin: Admin, withText = false) => (
    <div className={withText ? 'grid grid-cols-2 gap-2' : 'flex justify-end gap-1'}>
      {[
        { word: 'Edit', icon: <Icons.edit />, tone: neutralAction, act: onEdit },
        { word: 'Delete', icon: <Icons.trash />, tone: dangerAction, act: onDelete },
      ].map(({ word, icon, tone, act }) => (
        <IconButton
          key={word}
          label={`${word} ${admin.username}`}
          title={null}
          onClick={() => act(admin)}
          className={`${actionBase} ${tone} ${withText ? cardAction : 'size-11'}`}
        >
          {icon}
          {withText ? <span>{word}</span> : null}
        </IconButton>
      ))}
    </div>
  )
  return (
    <>
      <table className="hidden w-full text-left text-sm lg:table">
        <TableHead
          columns={[
            ...columnsOf('px-3 py-3', ['Username', 'Email']),
            { label: 'Actions', className: 'px-3 py-3 text-right' },
          ]}
        />
        <tbody className="divide-y divide-zinc-200 dark:divide-ink-700">
          {admins.map((admin) => (
            <tr key={admin._id}>
              <td className="px-3 py-3 font-medium">{admin.username}</td>
              <td className="px-3 py-3 text-zinc-600 dark:text-zinc-300">{admin.email}</td>
              <td className="px-3 py-2">{actions(admin)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul className="space-y-3 lg:hidden">
        {admins.map((admin) => (
          <li key={admin._id} className="rounded-xl border border-zinc-200 p-3 dark:border-ink-700">
            <div className="flex items-center gap-3">
              <span
                aria-hidden="true"
                className="flex size-10 shrink-0 items-center justify-center rounded-full bg-amber-100 font-semibold text-amber-800 dark:bg-ink-700 dark:text-accent"
              >
                {admin.username.slice(0, 1).toUpperCase()}
              </span>
              <div className="min-w-0 flex-1">
                <p className="break-all font-medium">{admin.username}</p>
                <p className="break-all text-sm text-zinc-600 dark:text-zinc-400">{admin.email}</p>
              </div>
            </div>
            {/* Actions on a line of their own, so name and address keep the card's width. */}
            <div className="mt-3 border-zinc-200 border-t pt-3 dark:border-ink-700">
              {actions(admin, true)}
            </div>
          </li>
        ))}
      </ul>
    </>
  )
}
