// Downloads for the page's Go program (ui/export.go): text as a file, the
// page's SVG figures as self-contained SVG files (the styles the page's CSS
// gives them are written onto each element), and a canvas as PNG.
'use strict';
(function () {
  function save(name, blob) {
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    a.style.display = 'none';
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }

  // The presentation properties an SVG needs to look as it does on the page.
  const props = ['fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-opacity', 'stroke-dasharray', 'stroke-linecap',
    'stroke-linejoin', 'opacity', 'font-family', 'font-size', 'font-weight', 'text-anchor', 'dominant-baseline', 'visibility'];

  function inline(live, copy) {
    const cs = getComputedStyle(live);
    const style = props.map((p) => p + ':' + cs.getPropertyValue(p)).join(';');
    copy.setAttribute('style', style);
    copy.removeAttribute('class');
    copy.removeAttribute('data-testid');
    for (let i = 0; i < live.children.length; i++) inline(live.children[i], copy.children[i]);
  }

  // One SVG of the figures the selectors find, side by side.
  function svgOf(selectors) {
    const ns = 'http://www.w3.org/2000/svg';
    const out = document.createElementNS(ns, 'svg');
    out.setAttribute('xmlns', ns);
    let x = 0;
    let h = 0;
    for (const sel of selectors) {
      const live = document.querySelector(sel);
      if (!live) continue;
      const vb = live.viewBox.baseVal;
      const copy = live.cloneNode(true);
      inline(live, copy);
      copy.setAttribute('x', x);
      copy.setAttribute('y', 0);
      copy.setAttribute('width', vb.width);
      copy.setAttribute('height', vb.height);
      out.appendChild(copy);
      x += vb.width + 10;
      h = Math.max(h, vb.height);
    }
    const w = Math.max(0, x - 10);
    out.setAttribute('width', w);
    out.setAttribute('height', h);
    out.setAttribute('viewBox', '0 0 ' + w + ' ' + h);
    // A white ground, as on the page.
    const bg = document.createElementNS(ns, 'rect');
    bg.setAttribute('width', w);
    bg.setAttribute('height', h);
    bg.setAttribute('fill', '#fff');
    out.insertBefore(bg, out.firstChild);
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(out);
  }

  window.rmlDownload = (name, type, text) => save(name, new Blob([text], { type }));
  window.rmlDownloadSVG = (name, selectors) => save(name, new Blob([svgOf(selectors)], { type: 'image/svg+xml' }));
  // The canvases inside an element as one PNG, each drawn where the page
  // shows it (without smoothing: the heat map's cells canvas has one pixel
  // per entry), at the pixel size of the widest of them, scaled up by a
  // whole factor to at least 256 pixels wide.
  window.rmlDownloadLayers = (name, selector) => {
    const v = document.querySelector(selector);
    const cs = v ? [...v.querySelectorAll('canvas')] : [];
    if (!cs.length || !v.clientWidth) return;
    const w = Math.max(...cs.map((c) => c.width));
    const k = Math.max(1, Math.ceil(256 / w));
    const s = (w * k) / v.clientWidth;
    const out = document.createElement('canvas');
    out.width = w * k;
    out.height = Math.round(v.clientHeight * s);
    const g = out.getContext('2d');
    g.imageSmoothingEnabled = false;
    for (const c of cs) g.drawImage(c, c.offsetLeft * s, c.offsetTop * s, c.offsetWidth * s, c.offsetHeight * s);
    out.toBlob((b) => save(name, b), 'image/png');
  };

})();
