// The API reference page (/api/swagger): Swagger UI on the document chosen in the page's own
// top bar. Browser code, served as it is (not compiled).
/* global SwaggerUIBundle */
(function start() {
  const config = JSON.parse(document.getElementById('api-references-config').textContent);
  const select = document.getElementById('api-document');
  const ui = SwaggerUIBundle({
    dom_id: '#swagger-ui',
    url: config.documents[config.selected],
    presets: [SwaggerUIBundle.presets.apis],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'BaseLayout',
    // The default asks an outside validator about every document: no request leaves this server.
    validatorUrl: null,
    displayRequestDuration: true,
    // Credentials given under Authorize last as long as the page, not across visits.
    persistAuthorization: false,
  });
  select.addEventListener('change', () => {
    const url = config.documents[select.value];
    if (!url) return;
    // The address follows the choice, so a reload or a shared link opens the same document.
    history.replaceState(null, '', `?doc=${encodeURIComponent(select.value)}`);
    ui.specActions.updateUrl(url);
    ui.specActions.download(url);
  });
  window.ui = ui;
})();
