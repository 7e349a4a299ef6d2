import { DOCS_ASSET_PATH } from './assets';

/** Swagger UI over /openapi.json by relative URLs (it works under a path prefix); no validator badge: none leaves. */
export function docsPageHtml(): string {
  // The page is /docs, so relative URLs resolve against the service root.
  const assets = DOCS_ASSET_PATH.slice(1);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>shardline API</title>
<link rel="icon" type="image/png" href="${assets}/favicon-32x32.png">
<link rel="stylesheet" href="${assets}/swagger-ui.css">
</head>
<body>
<noscript>This page needs JavaScript; the API description itself is at \
<a href="openapi.json">openapi.json</a>.</noscript>
<div id="swagger-ui"></div>
<script src="${assets}/swagger-ui-bundle.js"></script>
<script>
window.ui = SwaggerUIBundle({
  url: 'openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
</script>
</body>
</html>
`;
}

/** Same-origin only: the page must render with no network beyond the service. */
export const DOCS_PAGE_CSP =
  "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";
