// Toast policy of docs/dashboard.md: success 2000 ms, error/blank 4000 ms (the Toaster default),
// loading until dismissed. One place so every screen follows it.
import { toast } from 'sonner'

export const TOAST_LIMIT = 20
export const TOAST_DURATION = 4000
const SUCCESS_DURATION = 2000

export const notify = {
  success: (message: string, id?: string | number) =>
    toast.success(message, { duration: SUCCESS_DURATION, id }),
  error: (message: string, id?: string | number) =>
    toast.error(message, { duration: TOAST_DURATION, id }),
  message: (message: string) => toast(message),
  loading: (message: string) => toast.loading(message, { duration: Number.POSITIVE_INFINITY }),
  dismiss: (id?: string | number) => toast.dismiss(id),
}
