// Runs inside the page, after the fonts are ready: the items table's rows are all laid out on the first sheet; rows
// that do not fit its items area move to continuation sheets (cloned from <template id="continuation">, header
// repeated), as many as needed; then every "FOLHA n/m" is filled in. Measuring in the browser is the only exact way:
// a description wraps by the real glyph widths. A row taller than a whole items area stays alone on its sheet
// (clipped) rather than looping. Returns the number of sheets.
//
// Plain browser JavaScript kept as text: it is sent into the page as is, and must not depend on a bundler's output.
export const PAGINATE_SCRIPT = `
function paginateDanfe() {
  var template = document.getElementById('continuation');
  var sheet = document.querySelector('.sheet');
  var guard = 0;
  while (sheet && guard++ < 1000) {
    var area = sheet.querySelector('.items-area');
    var table = area && area.querySelector('table.items');
    var body = table && table.querySelector('tbody');
    if (!body) break;
    var limit = area.clientHeight;
    var rows = body.children;
    var cut = -1;
    for (var i = 0; i < rows.length; i++) {
      if (rows[i].offsetTop + rows[i].offsetHeight > limit) { cut = i === 0 ? 1 : i; break; }
    }
    if (cut < 0 || cut >= rows.length) break;
    var next = template.content.firstElementChild.cloneNode(true);
    sheet.parentNode.insertBefore(next, template);
    var nextBody = next.querySelector('table.items tbody');
    while (rows.length > cut) nextBody.appendChild(rows[cut]);
    sheet = next;
  }
  var sheets = document.querySelectorAll('.sheet');
  for (var s = 0; s < sheets.length; s++) {
    var marks = sheets[s].querySelectorAll('.sheet-number');
    for (var m = 0; m < marks.length; m++) marks[m].textContent = (s + 1) + '/' + sheets.length;
  }
  return sheets.length;
}
`;

/** The expression the renderer evaluates: waits for the fonts (measuring with a fallback font would mis-measure). */
export const PAGINATE_CALL = 'document.fonts.ready.then(function () { return paginateDanfe(); })';
