"""The diagnostics the loader itself emits (family IR0xx), declared here for their documentation."""

from __future__ import annotations

from irlint.rule import Rule, declared

MALFORMED_XML = declared(
    "IR001",
    "malformed-xml",
    """The file is not well-formed XML.

    What it checks:
    That the XML parser can read the whole file. The diagnostic carries the parser's own line and
    column and message.

    Why it matters:
    Nothing else can be checked in a file that does not parse; OpenVINO refuses it too.

    Example:
    ```xml
    <layer id="3" name="x" type="Add" version="opset1">   <!-- never closed -->
    ```

    How to fix:
    Fix the XML at the reported position; usually a truncated write or a hand edit.
    """,
)

DTD_NOT_ALLOWED = declared(
    "IR002",
    "dtd-not-allowed",
    """The file declares a DOCTYPE (and possibly entities), which IR never contains.

    What it checks:
    That the file has no `<!DOCTYPE ...>`. A DOCTYPE with an internal subset (`[...]`, where
    entities and default attributes are declared) is not read at all: parsing stops there and the
    model is not checked further, so a billion-laughs bomb or an external entity costs nothing.
    A DTD named by `SYSTEM`/`PUBLIC` is never fetched; the rest of the file is checked.

    Why it matters:
    OpenVINO's IR serializer never writes a DTD. One in a model is either a corrupted file or an
    attempt to make an XML reader expand entities or read local files. OpenVINO ignores DTD
    entities silently, so the model it reads differs from the text you see.

    Example:
    ```xml
    <!DOCTYPE net [<!ENTITY x SYSTEM "file:///etc/passwd">]>
    ```

    How to fix:
    Remove the DOCTYPE and write the values literally.
    """,
)

UNSUPPORTED_VERSION = declared(
    "IR003",
    "unsupported-ir-version",
    """The `<net version>` is not an IR version irlint and OpenVINO read (10 or 11).

    What it checks:
    The `version` attribute of the root `<net>` element. A file of another version is reported
    once and not checked further (exit code 2): its layout is not the one the other rules know.

    Why it matters:
    OpenVINO 2023+ reads only IR v10 and v11 (`read_model` finds no frontend for a v7 file);
    older versions (v6, v7) use another layout (layer precisions, `<blobs>`, no opset versions).

    Example:
    ```xml
    <net name="model" version="7">
    ```

    How to fix:
    Re-export the model with a current OpenVINO (`openvino.save_model`).
    """,
)

INVALID_ATTRIBUTE = declared(
    "IR004",
    "invalid-attribute-value",
    """An attribute the IR format defines has a value that cannot be parsed.

    What it checks:
    Integer attributes (layer and port ids, edge ends, port_map and back-edge fields, Const
    offset/size), port dims and `shape` attributes. A port `<dim>` is what OpenVINO reads: text
    that starts with an integer of at least -1 (-1 is a dynamic dim); `?`, an empty `<dim>`,
    `abc`, -2 or a number past 64 bits are refused. `?` and intervals (`1..3`) are valid only in
    `shape` attributes (text after a dim's integer is IR008).

    Why it matters:
    OpenVINO stops at the first such value with a message that gives no line ("stoll", or
    "dimension (?) in node dim must be greater or equal to -1: at offset 228"); irlint reports all
    of them and keeps checking the rest of the file.

    Example:
    ```xml
    <layer id="three" name="x" type="Relu" version="opset1">
    ```

    How to fix:
    Write the value as an integer (or a valid dim).
    """,
)

UNKNOWN_PRECISION = declared(
    "IR005",
    "unknown-precision",
    """A port `precision` or an `element_type` names no OpenVINO element type.

    What it checks:
    `precision` on ports (`FP32`, `I64`, `BOOL` ...) and `element_type` in `<data>` (`f32`, `i64`,
    `boolean` ...).

    Why it matters:
    OpenVINO refuses the model; types also decide how many bytes a Const reads from the .bin.

    Example:
    ```xml
    <port id="0" precision="FP33">
    ```

    How to fix:
    Use one of the element types of the OpenVINO opsets.
    """,
)

INVALID_STRUCTURE = declared(
    "IR006",
    "invalid-ir-structure",
    """An element the IR format requires is missing or in the wrong place.

    What it checks:
    The root is `<net>` with `<layers>` (and `<edges>`); each `<layer>` has `id`, `name`,
    `version` and a non-empty `type`; a Parameter or Const has its `<data>`, and a Const's `<data>`
    has `element_type`, `shape`, `offset` and `size`; each `<edge>` has its four ends; a
    TensorIterator or Loop has a `<body>` with `<layers>`; port_map entries and back edges have
    their required attributes.

    Why it matters:
    OpenVINO stops reading at the first such defect ("node <layer> is missing mandatory
    attribute: version", "Layer data must be defined for: opset1::Parameter x",
    "No attrtibutes defined for Const op!"). An empty `type` names no op ("Opset opset1 doesn't
    contain the operation with type: "); OpenVINO drops such a layer silently when no Result
    depends on it, and the Result itself when it is the one without a type.

    Example:
    ```xml
    <layer id="4" name="ti" type="TensorIterator" version="opset1"> <!-- no <body> -->
    ```

    How to fix:
    Add the missing element or attribute; compare with an IR written by `openvino.save_model`.
    """,
)

UNKNOWN_OPSET = declared(
    "IR007",
    "unknown-opset",
    """A layer's `version` names no opset OpenVINO reads.

    What it checks:
    The `version` attribute of every `<layer>`: it is `opset1` ... `opset17` (the opsets
    openvino 2026.4 reads), or `experimental`/`extension` on the few ops OpenVINO still reads
    under those names (ExperimentalDetectron*, GRUCell, RNNCell, Proposal; read as opset6). An
    empty `version=""`, `opset0`, `opset999` or `experimental` on another op is reported. A
    missing `version` is IR006.

    Why it matters:
    OpenVINO refuses the model ("Cannot create Subtract layer Subtract_85 id:2 from unsupported
    opset: opset999"). irlint would otherwise pick the newest version of the op it knows and check
    and run a model OpenVINO never reads.

    Example:
    ```xml
    <layer id="2" name="sub" type="Subtract" version="opset999">
    ```

    How to fix:
    Write the opset the op version is defined in (`opset1` for Subtract); `openvino.save_model`
    writes it.
    """,
)

PARTIAL_DIM = declared(
    "IR008",
    "dim-read-partly",
    """A port `<dim>` holds text after its integer, which OpenVINO's reader drops.

    What it checks:
    The text of each `<dim>` of a port. OpenVINO reads the integer it starts with and ignores the
    rest, so `<dim>1..3</dim>` is read as 1 and `<dim>2..?</dim>` as 2; irlint reads it the same
    way and reports it. (A `<dim>` that does not start with an integer of at least -1, such as
    `?`, is IR004: OpenVINO refuses it.)

    Why it matters:
    Intervals and `?` belong in `shape` attributes; in a port's dims they do not mean what they
    say. OpenVINO's serializer writes port dims as integers only, -1 for any dynamic dim.

    Example:
    ```xml
    <dim>1..3</dim>
    ```

    How to fix:
    Write the integer (or -1 for a dynamic dim); put bounds in the Parameter's `shape`.
    """,
    severity="warning",
)

OP_NOT_IN_OPSET = declared(
    "IR009",
    "op-not-in-opset",
    """A layer's type is not an op of the opset its `version` names.

    What it checks:
    That the opset the `version` names holds an op of the layer's `type`, as OpenVINO's reader
    looks it up: without case, after its renames (`Const` is Constant, `ReLU` Relu, `PReLU` PRelu,
    `SoftMax` Softmax), with MVN, ROIPooling and ReorgYolo of `opset1` taken from opset2. The
    table of which opset holds which type is generated from OpenVINO's own opset tables.

    Why it matters:
    OpenVINO refuses the model ("Opset opset1 doesn't contain the operation with type: Loop"), and
    refuses a type no opset holds the same way ("... with type: FancyTanh"). irlint would
    otherwise check and run a model OpenVINO never reads (it finds ops by type, newest version
    first).

    Example:
    ```xml
    <layer id="4" name="loop" type="Loop" version="opset1">   <!-- Loop is in opset5 ... opset16 -->
    ```

    How to fix:
    Write the opset the op version is defined in (`openvino.save_model` writes the first opset
    that holds it). A custom op is read by OpenVINO only with the extension that defines it
    loaded (`core.add_extension`); irlint does not know extensions: `--ignore IR009` for such a
    model.
    """,
)

DUPLICATE_RT_INFO = declared(
    "IR010",
    "duplicate-rt-info-attribute",
    """A layer's or port's `<rt_info>` names one of the attributes OpenVINO reads twice.

    What it checks:
    Within one `<rt_info>` of a layer or port, no two `<attribute>` elements share a `name` among
    those OpenVINO's reader turns into run-time info: `fused_names`, `old_api_map_order`,
    `old_api_map_element_type`, `primitives_priority`, `decompression`, `layout`, `precise`.
    Other names, and the `<info>` entries of the model's own `<rt_info>`, are skipped by OpenVINO
    (measured: a repeated unknown name or model-level `<info>` is read).

    Why it matters:
    OpenVINO refuses the model at read ("multiple rt_info attributes are detected: fused_names")
    without naming the layer.

    Example:
    ```xml
    <rt_info>
        <attribute name="fused_names" version="0" value="a"/>
        <attribute name="fused_names" version="0" value="b"/>
    </rt_info>
    ```

    How to fix:
    Keep one of the two (fused names are a comma-separated list in one value).
    """,
)

PRE_PROCESS_REFUSED = declared(
    "IR011",
    "pre-process-refused",
    """A legacy `<pre-process>` section that OpenVINO's reader refuses.

    What it checks:
    The model-level `<pre-process reference-layer-name="...">` names a Parameter; each
    `<channel><mean>` has a `value` or a `size`; there is one mean per channel (dimension 1 of the
    Parameter's shape); a mean blob (`offset`, `size`) holds one f32 per element of a channel's
    plane (the dims after the channel).

    Why it matters:
    OpenVINO refuses the model at read: "pre-process name ref 'nope' refers to un-existing input",
    "mean should have at least one of the following attribute: value, size", "Number of mean values
    (1) is not equal to number of channels (3)", "mean blob size mismatch expected input, got: 8
    expecting [1,2,2] x 4".

    Example:
    ```xml
    <pre-process reference-layer-name="data"><channel id="0"><mean/></channel></pre-process>
    ```

    How to fix:
    Name the model input the means apply to and give every channel its mean; better, fold the
    subtraction into the model (a Subtract after the Parameter) and drop the legacy section.
    """,
)

PRE_PROCESS_MEANS = declared(
    "IR012",
    "pre-process-means",
    """A legacy `<pre-process>` section gives mean values, which OpenVINO subtracts and irlint does not.

    What it checks:
    The model-level `<pre-process>` holds `<mean>` values or blobs for a Parameter.

    Why it matters:
    OpenVINO's reader applies them: it subtracts each channel's mean from the input as it reads the
    model (measured: means 1, 2, 3 on a `[1,3,2,2]` input change a Negative's outputs from 0, -4,
    -8 to 1, -2, -5). irlint reads no `<pre-process>`: its checks and `irlint run` see the input as
    given, so its outputs differ from OpenVINO's by the subtraction.

    Example:
    ```xml
    <pre-process reference-layer-name="data">
        <channel id="0"><mean value="104.0"/></channel> ...
    </pre-process>
    ```

    How to fix:
    Fold the subtraction into the model (a Subtract of a constant after the Parameter) and drop
    the legacy section; or subtract the means from the inputs given to `irlint run`.
    """,
    severity="warning",
)

# The <rt_info> attributes OpenVINO's reader deserializes (measured on 2026.4: a repeated one is refused).
RT_INFO_READ = frozenset({"fused_names", "old_api_map_order", "old_api_map_element_type", "primitives_priority",
                          "decompression", "layout", "precise"})

LOADER_RULES: tuple[Rule, ...] = (
    MALFORMED_XML,
    DTD_NOT_ALLOWED,
    UNSUPPORTED_VERSION,
    INVALID_ATTRIBUTE,
    UNKNOWN_PRECISION,
    INVALID_STRUCTURE,
    UNKNOWN_OPSET,
    PARTIAL_DIM,
    OP_NOT_IN_OPSET,
    DUPLICATE_RT_INFO,
    PRE_PROCESS_REFUSED,
    PRE_PROCESS_MEANS,
)

INTERNAL_ERROR = declared(
    "IR900",
    "internal-error",
    """irlint itself failed while checking (a rule, shape function or reporter raised).

    What it checks:
    Nothing: it reports that a part of irlint crashed, naming the part, so that the rest of the
    checks can still run and you still get their findings.

    Why it matters:
    The findings of the crashed part are missing; the exit code is 2 so that CI notices.

    Example:
    ```text
    model.xml:1:1: IR900 rule PM401 (port-map-external-port-missing) crashed: KeyError: 3
    ```

    How to fix:
    Report it with the model; `--debug` adds the traceback. `--ignore` the crashing rule meanwhile.
    """,
)

LOADER_RULES = (*LOADER_RULES, INTERNAL_ERROR)
