"""Reads one DeepSpeed release's own source (its PyPI sdist) into plain facts, without importing it.

What it reads, with Python's `ast` (no torch, no DeepSpeed import):
- every pydantic config model (a class deriving from `DeepSpeedConfigModel`): its fields, their
  aliases and literal defaults, and `deprecated=True` fields with their `new_param`;
- module-level constants (`GRADIENT_CLIPPING = "gradient_clipping"`,
  `GRADIENT_CLIPPING_DEFAULT = 0.`), per file;
- every identifier-like string literal of the modules that read the config (`config.py`,
  `constants.py`, `*_config.py`): a lax key DeepSpeed reads with `dict.get` appears as one;
- `_REMOVED_TOP_LEVEL_CONFIG_KEYS` / `_REMOVED_ZERO_CONFIG_KEYS` (0.19.6+: keys the parser rejects,
  with the release's own message);
- the optimizer names (`DEEPSPEED_OPTIMIZERS`) and LR schedules (`VALID_LR_SCHEDULES`);
- which engine-start checks the release has ([`CHECKS`]: a check ds-studio reproduces, found by
  the message DeepSpeed raises).

The sdists are downloaded once from the package index pip uses (PyPI's simple API, sha256
checked) into `~/.cache/ds-studio/deepspeed-src/`.
"""
import ast
import hashlib
import os
import re
import tarfile
import urllib.request

CACHE = os.path.join(
    os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "ds-studio", "deepspeed-src"
)
INDEX = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple").rstrip("/")
IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{1,63}$")
# Parts of the package that never read the training config.
# Engine-start checks ds-studio reproduces, by the file and the text of DeepSpeed's own message
# (a validator rule asks the registry which releases have each).
CHECKS = {
    "warmup-num-steps-positive": ("runtime/lr_schedules.py", "warmup_num_steps must be a positive integer"),
    "lr-range-step-size-positive": ("runtime/lr_schedules.py", "lr_range_test_step_size must be a positive integer"),
    "one-cycle-step-size-positive": ("runtime/lr_schedules.py", "cycle_first_step_size must be positive"),
    "max-grad-norm-refused": ("runtime/engine.py", "is not supported as an optimizer parameter"),
    "fp16-loss-scale-validator": ("runtime/precision_config.py", "fp16.loss_scale must be a number, not bool"),
    "fp16-scale-params-integers": ("runtime/precision_config.py", "must be an integer, not bool"),
    "fp16-dynamic-scale-positive": ("runtime/precision_config.py", "when dynamic loss scaling is enabled"),
    # `dist.get_world_size() / config["sequence_parallel_size"]` raising (0, a string) stops the
    # parse; before, `except Exception` swallowed it and the world size became 1.
    "sp-errors-propagate": ("runtime/config.py", "except (RuntimeError, AssertionError, AttributeError):\n            self.global_rank = 0"),
    # `fp16_master_weights_and_grads` needs ZeRO stage 2 (later: 1, 2 or 3).
    "fp16-master-stage-2-only": ("runtime/config.py", "only supported with ZeRO Stage 2 for now"),
    # ZenFlow's validator refuses an update_interval below 1.
    "zenflow-update-interval-min": ("runtime/zenflow/zenflow_config.py", "If update_interval is a number, it must be at least 1"),
    # bf16 master weights with bf16_optimizer_states still need DeepSpeedCPUAdam when offloaded.
    "bf16-states-offload-validated": ("runtime/base_optimizer.py", "and (not self.bf16_optimizer_states or offload_enabled)"),
    # ZenFlowCPUAdam is among ZeRO's tested optimizers (before, ZenFlow with an offloaded Adam
    # needs zero_allow_untested_optimizer).
    "zenflow-cpu-adam-tested": ("runtime/zero/utils.py", "DeepSpeedCPUAdam, ZenFlowCPUAdam,"),
    # `deepspeed.initialize` compares the raw dict's tensor_parallel.autotp_size with 0.
    "autotp-size-raw-compare": ("deepspeed/__init__.py", 'autotp_size = config.get("tensor_parallel", {}).get("autotp_size", 0)'),
    # The release's config models are pydantic v1 models (`deepspeed.pydantic_v1`).
    "pydantic-v1": ("runtime/config_utils.py", "pydantic_v1 import"),
}
SKIP = ("deepspeed/ops/", "deepspeed/inference/v2/", "deepspeed/model_implementations/", "/tests/")


def sdist(version):
    """Path of the release's sdist in the cache, downloaded (and its sha256 checked) if missing."""
    os.makedirs(CACHE, exist_ok=True)
    path = os.path.join(CACHE, f"deepspeed-{version}.tar.gz")
    if os.path.exists(path):
        return path
    page = urllib.request.urlopen(f"{INDEX}/deepspeed/", timeout=60).read().decode()
    m = re.search(r'href="([^"]*/deepspeed-%s\.tar\.gz)#sha256=([0-9a-f]+)"' % re.escape(version), page)
    if not m:
        raise SystemExit(f"deepspeed {version}: no sdist on {INDEX}/deepspeed/")
    data = urllib.request.urlopen(m.group(1), timeout=300).read()
    if hashlib.sha256(data).hexdigest() != m.group(2):
        raise SystemExit(f"deepspeed {version}: sha256 mismatch")
    with open(path + ".part", "wb") as f:
        f.write(data)
    os.replace(path + ".part", path)
    return path


def literal(node, names):
    """The value of a literal expression (names resolved from `names`), or raises ValueError."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in names:
            return names[node.id]
        if node.id in ("True", "False", "None"):
            return {"True": True, "False": False, "None": None}[node.id]
        raise ValueError(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -literal(node.operand, names)
    if isinstance(node, ast.BinOp):
        a, b = literal(node.left, names), literal(node.right, names)
        ops = {ast.Mult: lambda: a * b, ast.Pow: lambda: a**b, ast.Add: lambda: a + b,
               ast.Sub: lambda: a - b, ast.Div: lambda: a / b, ast.LShift: lambda: a << b}
        if type(node.op) in ops:
            return ops[type(node.op)]()
    if isinstance(node, (ast.List, ast.Tuple)):
        return [literal(e, names) for e in node.elts]
    if isinstance(node, ast.Dict):
        return {literal(k, names): literal(v, names) for k, v in zip(node.keys, node.values)}
    if isinstance(node, ast.JoinedStr):
        out = []
        for v in node.values:
            out.append(str(literal(v.value if isinstance(v, ast.FormattedValue) else v, names)))
        return "".join(out)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("set", "frozenset", "list", "tuple") and node.args:
        return literal(node.args[0], names)
    raise ValueError(ast.dump(node)[:80])


def jsonable(v):
    return v is None or isinstance(v, (bool, int, float, str)) or (
        isinstance(v, list) and all(jsonable(x) for x in v)) or (
        isinstance(v, dict) and all(isinstance(k, str) and jsonable(x) for k, x in v.items()))


def field_of(stmt, names):
    """(name, {alias, default, deprecated, new_param}) of an annotated class attribute."""
    name = stmt.target.id
    info = {"alias": None, "default": None, "has_default": stmt.value is not None,
            "deprecated": False, "new_param": None}
    value = stmt.value
    if isinstance(value, ast.Call) and getattr(value.func, "id", getattr(value.func, "attr", "")) == "Field":
        info["has_default"] = bool(value.args) or any(k.arg in ("default", "default_factory") for k in value.keywords)
        default = value.args[0] if value.args else None
        for k in value.keywords:
            if k.arg == "default":
                default = k.value
            elif k.arg == "default_factory":
                default = ast.Call(func=k.value, args=[], keywords=[])
            elif k.arg in ("alias", "new_param"):
                try:
                    info[k.arg] = literal(k.value, names)
                except ValueError:
                    pass
            elif k.arg in ("gt", "ge", "lt", "le"):
                try:
                    info.setdefault("bounds", {})[k.arg] = literal(k.value, names)
                except ValueError:
                    pass
            elif k.arg == "deprecated":
                info["deprecated"] = isinstance(k.value, ast.Constant) and bool(k.value.value)
            elif k.arg == "json_schema_extra" and isinstance(k.value, ast.Dict):
                for kk, vv in zip(k.value.keys, k.value.values):
                    key = getattr(kk, "value", None)
                    if key == "deprecated":
                        info["deprecated"] = isinstance(vv, ast.Constant) and bool(vv.value)
                    elif key == "new_param":
                        try:
                            info["new_param"] = literal(vv, names)
                        except ValueError:
                            pass
        value = default
    if value is not None:
        if isinstance(value, ast.Call) and getattr(value.func, "id", "") in ("dict", "list"):
            info["default"] = {} if value.func.id == "dict" else []
        else:
            try:
                v = literal(value, names)
                info["default"] = v if jsonable(v) else repr(v)
            except ValueError:
                info["default"] = {"source": ast.unparse(value)[:80]}
    return name, info


def read(version):
    """The facts of one release (see the module docs), cached beside its sdist per reader version."""
    import json
    with open(__file__, "rb") as f:
        reader = hashlib.sha256(f.read()).hexdigest()[:12]
    cached = os.path.join(CACHE, f"facts-{version}-{reader}.json")
    if os.path.exists(cached):
        with open(cached) as f:
            return json.load(f)
    facts = read_source(version)
    with open(cached + ".part", "w") as f:
        json.dump(facts, f)
    os.replace(cached + ".part", cached)
    return facts


def read_source(version):
    models, constants, strings = {}, {}, set()
    removed, optimizers, schedulers = {}, [], []
    bases = {}
    with tarfile.open(sdist(version)) as tar:
        files = []
        for member in tar.getmembers():
            rel = member.name.split("/", 1)[1] if "/" in member.name else member.name
            if not rel.startswith("deepspeed/") or not rel.endswith(".py") or any(s in rel for s in SKIP):
                continue
            files.append((rel, tar.extractfile(member).read().decode("utf-8", "replace")))
    checks = sorted(name for name, (suffix, text) in CHECKS.items()
                    if any(rel.endswith(suffix) and text in body for rel, body in files))
    # Constants of every module first: models and lists refer to them across files.
    trees = {}
    all_names = {}
    for rel, text in files:
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        trees[rel] = tree
        names = {}
        for stmt in tree.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                try:
                    v = literal(stmt.value, {**all_names, **names})
                except (ValueError, TypeError, KeyError, ZeroDivisionError):
                    continue
                if jsonable(v) and not isinstance(v, (list, dict)):
                    names[stmt.targets[0].id] = v
        constants[rel] = names
        for k, v in names.items():
            all_names.setdefault(k, v)
    for rel, tree in trees.items():
        names = {**all_names, **constants[rel]}
        docstrings = set()
        base = rel.rsplit("/", 1)[-1]
        reads_config = base in ("config.py", "constants.py") or base.endswith("_config.py") or rel.endswith("runtime/engine.py")
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and node.body:
                first = node.body[0]
                if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                    docstrings.add(id(first.value))
            if reads_config and isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                if IDENT.match(node.value):
                    strings.add(node.value)
            if isinstance(node, ast.ClassDef):
                bases[node.name] = [getattr(b, "id", getattr(b, "attr", "")) for b in node.bases]
                fields, extra = {}, None
                for stmt in node.body:
                    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                        if stmt.target.id == "model_config":
                            continue
                        name, info = field_of(stmt, names)
                        fields[name] = info
                    elif isinstance(stmt, ast.Assign) and getattr(stmt.targets[0], "id", "") == "model_config":
                        for k in getattr(stmt.value, "keywords", []):
                            if k.arg == "extra":
                                extra = getattr(k.value, "value", None)
                    elif isinstance(stmt, ast.ClassDef) and stmt.name == "Config":
                        for s in stmt.body:
                            if isinstance(s, ast.Assign) and getattr(s.targets[0], "id", "") == "extra":
                                extra = getattr(s.value, "value", getattr(s.value, "attr", None))
                models[node.name] = {"file": rel, "fields": fields, "extra": extra}
        for stmt in tree.body:
            if not (isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name)):
                continue
            target = stmt.targets[0].id
            try:
                if target.startswith("_REMOVED_") and target.endswith("_CONFIG_KEYS"):
                    removed[target[len("_REMOVED_"):-len("_CONFIG_KEYS")].lower()] = literal(stmt.value, names)
                elif target == "DEEPSPEED_OPTIMIZERS" and rel == "deepspeed/runtime/config.py":
                    optimizers = literal(stmt.value, names)
                elif target == "VALID_LR_SCHEDULES":
                    schedulers = literal(stmt.value, names)
            except ValueError:
                pass
    # Keep the models deriving (through any chain) from DeepSpeedConfigModel.
    def is_config(name, seen=()):
        if name == "DeepSpeedConfigModel":
            return True
        return name not in seen and any(is_config(b, seen + (name,)) for b in bases.get(name, []))

    # Plain pydantic models (deriving from `BaseModel` but not from DeepSpeedConfigModel): their
    # fields' types are checked, but extra keys are ignored and "auto" is not dropped.
    def is_plain(name, seen=()):
        if name == "BaseModel":
            return True
        return name not in seen and any(is_plain(b, seen + (name,)) for b in bases.get(name, []))

    plain_models = sorted(n for n in models if not is_config(n) and is_plain(n))
    models = {n: m for n, m in models.items() if n != "DeepSpeedConfigModel" and is_config(n)}
    for n, m in models.items():
        # Inherited fields (a model may extend another config model).
        chain = [b for b in bases.get(n, []) if b in models]
        for b in chain:
            for f, info in models[b]["fields"].items():
                m["fields"].setdefault(f, info)
    return {
        "version": version,
        "models": models,
        "plain_models": plain_models,
        "constants": constants,
        "strings": sorted(strings),
        "removed": removed,
        "optimizers": [o.lower() for o in optimizers],
        "schedulers": schedulers,
        "checks": checks,
    }
