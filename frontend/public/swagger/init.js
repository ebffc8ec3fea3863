// /docs: Swagger UI (served from /swagger/, copied from npm's swagger-ui-dist at build) on the app's own schema.
/* global SwaggerUIBundle */
window.ui = SwaggerUIBundle({
  url: './openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
