// fsnb ExplorePanel loader: the module each panel's saved state holds (a few hundred bytes).
// The front end itself, widget.js and widget.css, is held once per kernel by a shared model
// (the panel's `_front`): a notebook with many panels saves it once, not once per panel.
const modules = new Map(); // source text -> the module imported from it (a promise)

function load(source) {
  if (!modules.has(source)) {
    const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
    modules.set(source, import(url).finally(() => URL.revokeObjectURL(url)));
  }
  return modules.get(source);
}

function style(css, doc) {
  let node = doc.getElementById("fsnb-panel-style");
  if (!node) {
    node = doc.createElement("style");
    node.id = "fsnb-panel-style";
    doc.head.append(node);
  }
  if (node.textContent !== css) node.textContent = css;
}

export default {
  async render(view) {
    const { model, el, host } = view;
    const ref = model.get("_front");
    const front = host && host.getModel
      ? await host.getModel(ref)
      : await model.widget_manager.get_model(String(ref).replace(/^anywidget:/, ""));
    style(front.get("css"), el.ownerDocument || document);
    const widget = await load(front.get("esm"));
    return widget.default.render(view);
  },
};
