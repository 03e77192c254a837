// Runs inside the page, after the fonts are ready. First every field value wider than its box is fitted: its type
// made smaller, down to the manual's minimum of 6 pt, and past that wrapped onto more lines — a field is one line
// with overflow hidden (the form keeps its grid), and a long address or district would otherwise lose its end
// silently. Then the items table's rows, all laid out on the first sheet, that do not fit its items area move to
// continuation sheets (cloned from <template id="continuation">, header repeated and fitted the same way), as many
// as needed; then every "FOLHA n/m" is filled in. Measuring in the browser is the only exact way: text wraps by the
// real glyph widths. A row taller than a whole items area stays alone on its sheet (clipped) rather than looping.
// Returns the number of sheets.
//
// Plain browser JavaScript kept as text: it is sent into the page as is, and must not depend on a bundler's output.
export const PAGINATE_SCRIPT = `
function fitValues(root) {
  var values = root.querySelectorAll('td.c .v');
  for (var i = 0; i < values.length; i++) {
    var value = values[i];
    if (value.scrollWidth <= value.clientWidth) continue;
    var size = parseFloat(getComputedStyle(value).fontSize);
    value.style.fontSize = Math.max(8, Math.floor((size * value.clientWidth * 10) / value.scrollWidth) / 10) + 'px';
    if (value.scrollWidth > value.clientWidth) {
      value.style.whiteSpace = 'normal';
      value.style.overflowWrap = 'anywhere';
    }
  }
}
function paginateDanfe() {
  var template = document.getElementById('continuation');
  var sheet = document.querySelector('.sheet');
  if (sheet) fitValues(sheet);
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
    fitValues(next);
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
