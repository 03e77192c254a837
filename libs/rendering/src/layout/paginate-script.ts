// Runs inside the page, after the fonts are ready, and returns the number of sheets. Measuring in the browser is the
// only exact way: text wraps by the real glyph widths.
// 1. Every field value wider than its box is fitted: its type made smaller, down to the manual's minimum of 6 pt, and
//    past that wrapped onto more lines — a field is one line with overflow hidden (the form keeps its grid), and a
//    long address or district would otherwise lose its end silently.
// 2. Additional data taller than what the first sheet has left (a contingency notice, a correction letter and the
//    taxpayer's 5,000 characters can be) continues on the next sheet, as the manual allows: the paragraphs below the
//    sheet's edge move there, the last one split between words.
// 3. The items table's rows, all laid out on the first sheet, that do not fit its items area move to continuation
//    sheets (cloned from <template id="continuation">, header repeated and fitted the same way), as many as needed.
//    On the first sheet every row may move (its area can be squeezed to nothing by the blocks around it); on a
//    continuation sheet a row taller than the whole area stays alone there (clipped) rather than looping.
// 4. Every "FOLHA n/m" is filled in.
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
function spillAdditional(sheet) {
  var table = sheet.querySelector('table.additional');
  var value = table && table.querySelector('td .v');
  if (!value) return [];
  var edge = sheet.getBoundingClientRect().bottom - parseFloat(getComputedStyle(sheet).paddingBottom);
  // A pixel of slack: the blocks' borders, in mm, end a fraction of a pixel past the edge on a sheet that fits.
  var overflows = function () { return table.getBoundingClientRect().bottom > edge + 1; };
  var spilled = [];
  while (value.lastElementChild && overflows()) spilled.unshift(value.removeChild(value.lastElementChild));
  if (spilled.length === 0) return spilled;
  var words = spilled[0].textContent.split(' ');
  var kept = document.createElement('p');
  value.appendChild(kept);
  var low = 0;
  var high = words.length - 1;
  while (low < high) {
    var middle = Math.ceil((low + high) / 2);
    kept.textContent = words.slice(0, middle).join(' ');
    if (overflows()) high = middle - 1; else low = middle;
  }
  if (low === 0) value.removeChild(kept);
  else {
    kept.textContent = words.slice(0, low).join(' ');
    spilled[0].textContent = words.slice(low).join(' ');
  }
  return spilled;
}
function paginateDanfe() {
  var template = document.getElementById('continuation');
  var first = document.querySelector('.sheet');
  if (!first) return 0;
  fitValues(first);
  var spilled = spillAdditional(first);
  var sheet = first;
  var guard = 0;
  while (guard++ < 1000) {
    var area = sheet.querySelector('.items-area');
    var body = area && area.querySelector('table.items tbody');
    if (!body) break;
    var limit = area.clientHeight;
    var rows = body.children;
    var cut = -1;
    for (var i = 0; i < rows.length; i++) {
      if (rows[i].offsetTop + rows[i].offsetHeight > limit) { cut = i === 0 && sheet !== first ? 1 : i; break; }
    }
    var moving = cut >= 0 && cut < rows.length;
    if (!moving && spilled.length === 0) break;
    var next = template.content.firstElementChild.cloneNode(true);
    sheet.parentNode.insertBefore(next, template);
    if (spilled.length > 0) {
      var nextArea = next.querySelector('.items-area');
      nextArea.parentNode.insertBefore(document.getElementById('additional-continuation').content.cloneNode(true), nextArea.nextSibling);
      var more = next.querySelector('table.additional td .v');
      while (spilled.length > 0) more.appendChild(spilled.shift());
    }
    fitValues(next);
    var nextBody = next.querySelector('table.items tbody');
    while (moving && rows.length > cut) nextBody.appendChild(rows[cut]);
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
