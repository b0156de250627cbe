// Which font faces the browser really drew text with. `document.fonts` only says a face was
// loaded; with `font-display: optional` a face can load and still never be used, so this asks
// the renderer (CDP CSS.getPlatformFontsForNode) for the faces of each element's own text.
import type { CDPSession, Page } from 'playwright-core'

export type PlatformFont = {
  familyName: string
  postScriptName?: string
  isCustomFont: boolean
  glyphCount: number
}

export async function renderedFonts(
  page: Page,
  selector: string,
  cdp?: CDPSession,
): Promise<PlatformFont[][]> {
  const session = cdp ?? (await page.context().newCDPSession(page))
  await session.send('DOM.enable')
  await session.send('CSS.enable')
  const { root } = await session.send('DOM.getDocument', { depth: 0 })
  const { nodeIds } = await session.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector })
  const result: PlatformFont[][] = []
  for (const nodeId of nodeIds) {
    const { fonts } = await session.send('CSS.getPlatformFontsForNode', { nodeId })
    result.push(fonts)
  }
  if (!cdp) await session.detach()
  return result
}
