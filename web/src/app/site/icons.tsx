// Icons of the Site and Activity pages and their sidebar links, drawn like those in ui.tsx.
import type { SVGProps } from 'react'

type IconProps = SVGProps<SVGSVGElement>

function Svg({ d, ...props }: IconProps & { d: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      className="size-5"
      {...props}
    >
      <path d={d} />
    </svg>
  )
}

export const SiteIcons = {
  globe: (p: IconProps) => (
    <Svg
      {...p}
      d="M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18M3.6 9h16.8M3.6 15h16.8M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18"
    />
  ),
  activity: (p: IconProps) => <Svg {...p} d="M3 12h4l3-8 4 16 3-8h4" />,
  grip: (p: IconProps) => (
    <Svg {...p} d="M9 6h.01M9 12h.01M9 18h.01M15 6h.01M15 12h.01M15 18h.01" strokeWidth={3} />
  ),
  undo: (p: IconProps) => <Svg {...p} d="M9 14 4 9l5-5M4 9h10.5a5.5 5.5 0 0 1 0 11H11" />,
  image: (p: IconProps) => <Svg {...p} d="M4 5h16v14H4zM4 15l4-4 5 5 3-3 4 4M15 9h.01" />,
}
