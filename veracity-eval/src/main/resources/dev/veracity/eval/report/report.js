/*
 * Veracity report: sortable and filterable tables, and the metric charts (Chart.js with its error-bar plugin, both
 * vendored beside this file). Ours, and small on purpose: the tables are written by the report with every row in
 * them, so sorting and filtering are a few DOM moves; a table library would bring its own rendering for no gain.
 *
 * Tables: <table class="sortable">: a click on a header (or Enter on it) sorts by that column, again reverses it;
 * a "num" column sorts by number (a cell's data-value when it has one), blanks, "-" and "n/a" last either way; a row
 * of class "sub" (a CRAG breakdown) moves with the row above it.
 * Filters: <div class="filters" data-for="TABLE_ID"> with selects and checkboxes naming a row attribute (data-attr:
 * a row is kept when its data-NAME equals the control's value; "" or unchecked keeps all) and a search box
 * (data-text: the row's text contains it, any case); "shown" says how many rows are left.
 */
(function () {
  'use strict';

  var BLANK = /^(|-|n\/a)$/i;

  function cellKey(cell, numeric) {
    if (!cell) {
      return null;
    }
    var raw = cell.hasAttribute('data-value') ? cell.getAttribute('data-value') : cell.textContent;
    raw = raw.trim();
    if (BLANK.test(raw)) {
      return null;
    }
    if (numeric) {
      var n = parseFloat(raw.replace(/[,%]/g, ''));
      return isNaN(n) ? null : n;
    }
    return raw.toLowerCase();
  }

  function sortTable(table, column, descending) {
    var body = table.tBodies[0];
    var numeric = table.tHead.rows[0].cells[column].classList.contains('num');
    var groups = [];
    Array.prototype.forEach.call(body.rows, function (row, i) {
      if (row.classList.contains('sub') && groups.length) {
        groups[groups.length - 1].rows.push(row);
      } else {
        groups.push({rows: [row], key: cellKey(row.cells[column], numeric), order: i});
      }
    });
    groups.sort(function (a, b) {
      if (a.key === null || b.key === null) {
        return a.key === b.key ? a.order - b.order : a.key === null ? 1 : -1;
      }
      var c = numeric ? a.key - b.key : a.key.localeCompare(b.key);
      return c === 0 ? a.order - b.order : descending ? -c : c;
    });
    groups.forEach(function (g) {
      g.rows.forEach(function (r) { body.appendChild(r); });
    });
  }

  function makeSortable(table) {
    if (!table.tHead || !table.tBodies.length) {
      return;
    }
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, column) {
      th.tabIndex = 0;
      th.setAttribute('aria-sort', 'none');
      th.title = 'sort by this column';
      var sort = function () {
        var descending = th.getAttribute('aria-sort') === 'ascending';
        Array.prototype.forEach.call(table.tHead.rows[0].cells, function (other) {
          other.setAttribute('aria-sort', 'none');
        });
        th.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
        sortTable(table, column, descending);
      };
      th.addEventListener('click', sort);
      th.addEventListener('keydown', function (e) {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          sort();
        }
      });
    });
  }

  function makeFilter(box) {
    var table = document.getElementById(box.getAttribute('data-for'));
    if (!table) {
      return;
    }
    var controls = box.querySelectorAll('[data-attr]');
    var text = box.querySelector('[data-text]');
    var shown = box.querySelector('.shown');
    var apply = function () {
      var needle = text ? text.value.trim().toLowerCase() : '';
      var rows = table.tBodies[0].rows;
      var kept = 0;
      var total = 0;
      var parentKept = true;
      Array.prototype.forEach.call(rows, function (row) {
        if (row.classList.contains('sub')) {
          row.hidden = !parentKept;
          return;
        }
        var keep = true;
        Array.prototype.forEach.call(controls, function (c) {
          var want = c.type === 'checkbox' ? (c.checked ? c.value : '') : c.value;
          if (want !== '' && row.getAttribute('data-' + c.getAttribute('data-attr')) !== want) {
            keep = false;
          }
        });
        if (keep && needle && row.textContent.toLowerCase().indexOf(needle) < 0) {
          keep = false;
        }
        row.hidden = !keep;
        parentKept = keep;
        total++;
        kept += keep ? 1 : 0;
      });
      if (shown) {
        shown.textContent = kept === total ? total + ' row(s)' : kept + ' of ' + total + ' row(s) shown';
      }
    };
    Array.prototype.forEach.call(controls, function (c) { c.addEventListener('change', apply); });
    if (text) {
      text.addEventListener('input', apply);
    }
    apply();
  }

  function format(v, percent) {
    if (v === null || v === undefined) {
      return 'n/a';
    }
    return percent ? (v * 100).toFixed(1) + '%' : v.toFixed(3);
  }

  function drawCharts() {
    var data = document.getElementById('chart-data');
    if (!data || typeof window.Chart === 'undefined') {
      return;
    }
    var Chart = window.Chart;
    if (window.ChartErrorBars) {
      Chart.register(window.ChartErrorBars.BarWithErrorBarsController, window.ChartErrorBars.BarWithErrorBar);
    }
    var spec = JSON.parse(data.textContent);
    document.querySelectorAll('canvas[data-chart]').forEach(function (canvas) {
      var chart = spec.charts[Number(canvas.getAttribute('data-chart'))];
      if (!chart) {
        return;
      }
      var bars = chart.bars;
      var scale = chart.percent ? 100 : 1;
      var point = function (b) {
        return b.value === null ? null : {
          x: b.value * scale,
          xMin: b.lo === null ? b.value * scale : b.lo * scale,
          xMax: b.hi === null ? b.value * scale : b.hi * scale
        };
      };
      new Chart(canvas, {
        type: 'barWithErrorBars',
        data: {
          labels: bars.map(function (b) { return b.run; }),
          datasets: [{
            label: chart.metric,
            data: bars.map(point),
            backgroundColor: bars.map(function (b) { return b.colour; }),
            errorBarColor: '#333',
            errorBarWhiskerColor: '#333',
            errorBarLineWidth: 1.5,
            errorBarWhiskerLineWidth: 1.5
          }]
        },
        options: {
          indexAxis: 'y',
          animation: false,
          responsive: true,
          maintainAspectRatio: false,
          plugins: {
            legend: {display: false},
            title: {display: false},
            tooltip: {
              callbacks: {
                title: function (items) {
                  var b = bars[items[0].dataIndex];
                  return b.run + (b.method ? ' (' + b.method + ')' : '');
                },
                label: function (item) {
                  var b = bars[item.dataIndex];
                  var s = chart.metric + ': ' + format(b.value, chart.percent);
                  if (b.lo !== null && b.hi !== null) {
                    s += ', 95% interval [' + format(b.lo, chart.percent) + ', ' + format(b.hi, chart.percent) + ']';
                  }
                  return b.n === null ? s : s + ', n=' + b.n;
                }
              }
            }
          },
          scales: {
            x: {
              beginAtZero: true,
              max: chart.percent ? 100 : undefined,
              title: {display: true, text: chart.metric + (chart.percent ? ' (%)' : '')}
            },
            y: {ticks: {autoSkip: false}}
          }
        }
      });
    });
  }

  function init() {
    document.querySelectorAll('table.sortable').forEach(makeSortable);
    document.querySelectorAll('.filters[data-for]').forEach(makeFilter);
    drawCharts();
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', init);
  } else {
    init();
  }
}());
