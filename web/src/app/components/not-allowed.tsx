// What a signed-in admin without the super_admin role sees on a super admin's page
// (/dashboard/admins, /dashboard/activity).
import { Link } from '@tanstack/react-router'
import { buttonStyles, Card } from './ui.tsx'

export function NotAllowed({
  message = 'Only a super admin can manage admin accounts.',
}: {
  message?: string
}) {
  return (
    <div className="mx-auto max-w-xl py-12">
      <Card className="p-8 text-center">
        <h1 className="font-semibold text-2xl">Not allowed</h1>
        <p className="mt-2 text-zinc-600 dark:text-zinc-300">{message}</p>
        <Link to="/dashboard" className={`${buttonStyles.secondary} mt-6`}>
          Back to Dashboard
        </Link>
      </Card>
    </div>
  )
}
