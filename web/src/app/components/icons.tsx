// Icons of the Site and Activity pages and their sidebar links, drawn by ui.tsx's icon().
import { icon } from './ui.tsx'

export const SiteIcons = {
  globe: icon(
    'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18M3.6 9h16.8M3.6 15h16.8M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18',
  ),
  activity: icon('M3 12h4l3-8 4 16 3-8h4'),
  undo: icon('M9 14 4 9l5-5M4 9h10.5a5.5 5.5 0 0 1 0 11H11'),
  image: icon('M4 5h16v14H4zM4 15l4-4 5 5 3-3 4 4M15 9h.01'),
}
