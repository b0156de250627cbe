// A react-hook-form form checked by a zod schema, the schema made once for the form's life.
import { zodResolver } from '@hookform/resolvers/zod'
import { useMemo } from 'react'
import { type DefaultValues, type FieldValues, type Resolver, useForm } from 'react-hook-form'

export function useZodForm<In extends FieldValues, Out extends FieldValues>(
  makeSchema: () => Parameters<typeof zodResolver>[0],
  defaultValues: DefaultValues<In>,
) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: made once; a schema a render made anew would not change the form's rules
  const resolver = useMemo(() => zodResolver(makeSchema()) as Resolver<In, unknown, Out>, [])
  return useForm<In, unknown, Out>({ resolver, defaultValues })
}
