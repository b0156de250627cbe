// The languages a caption form's Language field offers while typing (a <datalist>): the tag to
// enter, with its name; any other tag may still be typed.
import { languageName, suggestedLanguages } from './caption-form-schema.ts'

export function LanguageSuggestions({ id }: { id: string }) {
  return (
    <datalist id={id}>
      {suggestedLanguages.map((tag) => (
        <option key={tag} value={tag} label={languageName(tag)} />
      ))}
    </datalist>
  )
}
