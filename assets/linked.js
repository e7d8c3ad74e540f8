// Before the page is drawn: a link to other settings than the first
// lesson's shows "loading" rather than the first lesson's static screen
// (index.html, from internal/firstpaint) until the app has started.
'use strict';
if (!/^#?(preset=learn)?$/.test(location.hash)) document.documentElement.classList.add('linked');
