// Class lists a caller extends: of two classes for the same property the later one wins
// (tailwind-merge), so a component's defaults give way without `!important` overrides.
export { twMerge as cn } from 'tailwind-merge'
