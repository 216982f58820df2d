export namespace app {
	
	export class Tool {
	    name: string;
	    args: string;
	    duration_ms: number;
	    error: string;
	
	    static createFrom(source: any = {}) {
	        return new Tool(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.args = source["args"];
	        this.duration_ms = source["duration_ms"];
	        this.error = source["error"];
	    }
	}
	export class CallError {
	    phase: string;
	    message: string;
	    line: number;
	    hint: string;
	
	    static createFrom(source: any = {}) {
	        return new CallError(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.phase = source["phase"];
	        this.message = source["message"];
	        this.line = source["line"];
	        this.hint = source["hint"];
	    }
	}
	export class Call {
	    call_id: string;
	    code: string;
	    output: string;
	    output_clipped: boolean;
	    output_bytes: number;
	    kept_bytes: number;
	    error?: CallError;
	    duration_ms: number;
	    tools: Tool[];
	    sandbox_refused: string;
	    sandbox_asked: string;
	    running: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Call(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.call_id = source["call_id"];
	        this.code = source["code"];
	        this.output = source["output"];
	        this.output_clipped = source["output_clipped"];
	        this.output_bytes = source["output_bytes"];
	        this.kept_bytes = source["kept_bytes"];
	        this.error = this.convertValues(source["error"], CallError);
	        this.duration_ms = source["duration_ms"];
	        this.tools = this.convertValues(source["tools"], Tool);
	        this.sandbox_refused = source["sandbox_refused"];
	        this.sandbox_asked = source["sandbox_asked"];
	        this.running = source["running"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class Effective {
	    source: string;
	    base_url: string;
	    model: string;
	    error: string;
	
	    static createFrom(source: any = {}) {
	        return new Effective(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.source = source["source"];
	        this.base_url = source["base_url"];
	        this.model = source["model"];
	        this.error = source["error"];
	    }
	}
	export class Goal {
	    objective: string;
	    status: string;
	    iteration_budget: number;
	    iterations_used: number;
	    tokens_used: number;
	    time_used_ms: number;
	    id: string;
	    revision: number;
	
	    static createFrom(source: any = {}) {
	        return new Goal(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.objective = source["objective"];
	        this.status = source["status"];
	        this.iteration_budget = source["iteration_budget"];
	        this.iterations_used = source["iterations_used"];
	        this.tokens_used = source["tokens_used"];
	        this.time_used_ms = source["time_used_ms"];
	        this.id = source["id"];
	        this.revision = source["revision"];
	    }
	}
	export class GoalView {
	    id: string;
	    session_id: string;
	    objective: string;
	    status: string;
	    iteration_budget?: number;
	    iterations_used: number;
	    tokens_used: number;
	    time_used_ms: number;
	    version: number;
	    revision: number;
	    created_at: string;
	    updated_at: string;
	
	    static createFrom(source: any = {}) {
	        return new GoalView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.session_id = source["session_id"];
	        this.objective = source["objective"];
	        this.status = source["status"];
	        this.iteration_budget = source["iteration_budget"];
	        this.iterations_used = source["iterations_used"];
	        this.tokens_used = source["tokens_used"];
	        this.time_used_ms = source["time_used_ms"];
	        this.version = source["version"];
	        this.revision = source["revision"];
	        this.created_at = source["created_at"];
	        this.updated_at = source["updated_at"];
	    }
	}
	export class ImageInput {
	    path: string;
	    name: string;
	    data_base64: string;
	
	    static createFrom(source: any = {}) {
	        return new ImageInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.name = source["name"];
	        this.data_base64 = source["data_base64"];
	    }
	}
	export class ImageVerdict {
	    reason: string;
	    sent: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ImageVerdict(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.reason = source["reason"];
	        this.sent = source["sent"];
	    }
	}
	export class TurnImage {
	    id: number;
	    name: string;
	    media_type: string;
	    size: number;
	
	    static createFrom(source: any = {}) {
	        return new TurnImage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.media_type = source["media_type"];
	        this.size = source["size"];
	    }
	}
	export class Usage {
	    input_tokens: number;
	    output_tokens: number;
	    cached_tokens: number;
	    reasoning_tokens: number;
	
	    static createFrom(source: any = {}) {
	        return new Usage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.input_tokens = source["input_tokens"];
	        this.output_tokens = source["output_tokens"];
	        this.cached_tokens = source["cached_tokens"];
	        this.reasoning_tokens = source["reasoning_tokens"];
	    }
	}
	export class Iteration {
	    position: number;
	    status: string;
	    code: string;
	    output: string;
	    error: string;
	    prose: string;
	    reasoning: string;
	    answer: string;
	    model: string;
	    usage: Usage;
	    duration_ms: number;
	    calls: Call[];
	    images?: TurnImage[];
	
	    static createFrom(source: any = {}) {
	        return new Iteration(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.position = source["position"];
	        this.status = source["status"];
	        this.code = source["code"];
	        this.output = source["output"];
	        this.error = source["error"];
	        this.prose = source["prose"];
	        this.reasoning = source["reasoning"];
	        this.answer = source["answer"];
	        this.model = source["model"];
	        this.usage = this.convertValues(source["usage"], Usage);
	        this.duration_ms = source["duration_ms"];
	        this.calls = this.convertValues(source["calls"], Call);
	        this.images = this.convertValues(source["images"], TurnImage);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Pane {
	    session_id: string;
	    workspace: string;
	
	    static createFrom(source: any = {}) {
	        return new Pane(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.session_id = source["session_id"];
	        this.workspace = source["workspace"];
	    }
	}
	export class Layout {
	    panes: Pane[];
	    active: number;
	
	    static createFrom(source: any = {}) {
	        return new Layout(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.panes = this.convertValues(source["panes"], Pane);
	        this.active = source["active"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ModelInfo {
	    name: string;
	    tools: boolean;
	    reasoning: boolean;
	    vision: boolean;
	    context: number;
	
	    static createFrom(source: any = {}) {
	        return new ModelInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.tools = source["tools"];
	        this.reasoning = source["reasoning"];
	        this.vision = source["vision"];
	        this.context = source["context"];
	    }
	}
	export class OutputPage {
	    text: string;
	    offset: number;
	    next: number;
	    kept_bytes: number;
	    total_bytes: number;
	    done: boolean;
	
	    static createFrom(source: any = {}) {
	        return new OutputPage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.text = source["text"];
	        this.offset = source["offset"];
	        this.next = source["next"];
	        this.kept_bytes = source["kept_bytes"];
	        this.total_bytes = source["total_bytes"];
	        this.done = source["done"];
	    }
	}
	
	export class Preset {
	    id: string;
	    label: string;
	    base_url: string;
	    needs_key: boolean;
	    key_url: string;
	    local_port: number;
	
	    static createFrom(source: any = {}) {
	        return new Preset(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.label = source["label"];
	        this.base_url = source["base_url"];
	        this.needs_key = source["needs_key"];
	        this.key_url = source["key_url"];
	        this.local_port = source["local_port"];
	    }
	}
	export class PromptBlock {
	    tag: string;
	    text: string;
	    chars: number;
	    tokens: number;
	
	    static createFrom(source: any = {}) {
	        return new PromptBlock(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tag = source["tag"];
	        this.text = source["text"];
	        this.chars = source["chars"];
	        this.tokens = source["tokens"];
	    }
	}
	export class PromptMessage {
	    role: string;
	    blocks: PromptBlock[];
	    chars: number;
	    tokens: number;
	
	    static createFrom(source: any = {}) {
	        return new PromptMessage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.role = source["role"];
	        this.blocks = this.convertValues(source["blocks"], PromptBlock);
	        this.chars = source["chars"];
	        this.tokens = source["tokens"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class PromptView {
	    turn: number;
	    iteration: number;
	    messages: PromptMessage[];
	    chars: number;
	    tokens: number;
	    rebuilt_at: number;
	
	    static createFrom(source: any = {}) {
	        return new PromptView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.turn = source["turn"];
	        this.iteration = source["iteration"];
	        this.messages = this.convertValues(source["messages"], PromptMessage);
	        this.chars = source["chars"];
	        this.tokens = source["tokens"];
	        this.rebuilt_at = source["rebuilt_at"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ProviderSettings {
	    preset: string;
	    base_url: string;
	    model: string;
	    reasoning: string;
	    models: ModelInfo[];
	    has_key: boolean;
	    key_hint: string;
	    key_store: string;
	
	    static createFrom(source: any = {}) {
	        return new ProviderSettings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.preset = source["preset"];
	        this.base_url = source["base_url"];
	        this.model = source["model"];
	        this.reasoning = source["reasoning"];
	        this.models = this.convertValues(source["models"], ModelInfo);
	        this.has_key = source["has_key"];
	        this.key_hint = source["key_hint"];
	        this.key_store = source["key_store"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Question {
	    id: string;
	    tool: string;
	    command: string;
	    why: string;
	    wait_seconds: number;
	    turn: number;
	
	    static createFrom(source: any = {}) {
	        return new Question(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.tool = source["tool"];
	        this.command = source["command"];
	        this.why = source["why"];
	        this.wait_seconds = source["wait_seconds"];
	        this.turn = source["turn"];
	    }
	}
	export class QueuedInput {
	    id: number;
	    kind: string;
	    text: string;
	    images: number;
	    held: boolean;
	    elsewhere: boolean;
	
	    static createFrom(source: any = {}) {
	        return new QueuedInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.kind = source["kind"];
	        this.text = source["text"];
	        this.images = source["images"];
	        this.held = source["held"];
	        this.elsewhere = source["elsewhere"];
	    }
	}
	export class Resource {
	    id: string;
	    session: string;
	    kind: string;
	    language: string;
	    label: string;
	    dir: string;
	    pid: number;
	    port: number;
	    status: string;
	    log: string;
	    created_at: number;
	    managed: boolean;
	    form?: string;
	    hint?: string;
	
	    static createFrom(source: any = {}) {
	        return new Resource(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.session = source["session"];
	        this.kind = source["kind"];
	        this.language = source["language"];
	        this.label = source["label"];
	        this.dir = source["dir"];
	        this.pid = source["pid"];
	        this.port = source["port"];
	        this.status = source["status"];
	        this.log = source["log"];
	        this.created_at = source["created_at"];
	        this.managed = source["managed"];
	        this.form = source["form"];
	        this.hint = source["hint"];
	    }
	}
	export class ReturnedInput {
	    id: number;
	    text: string;
	    images: ImageInput[];
	
	    static createFrom(source: any = {}) {
	        return new ReturnedInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.text = source["text"];
	        this.images = this.convertValues(source["images"], ImageInput);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class RevertOutcome {
	    revert?: backend.UndoView;
	    conflicts: string[];
	
	    static createFrom(source: any = {}) {
	        return new RevertOutcome(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.revert = this.convertValues(source["revert"], backend.UndoView);
	        this.conflicts = source["conflicts"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SearchHit {
	    session_id: string;
	    workspace: string;
	    title: string;
	    turn: number;
	    snippet: string;
	
	    static createFrom(source: any = {}) {
	        return new SearchHit(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.session_id = source["session_id"];
	        this.workspace = source["workspace"];
	        this.title = source["title"];
	        this.turn = source["turn"];
	        this.snippet = source["snippet"];
	    }
	}
	export class Session {
	    id: string;
	    workspace: string;
	    title: string;
	    turns: number;
	    created: string;
	    updated: string;
	    fork_of: string;
	    fork_turns: number;
	
	    static createFrom(source: any = {}) {
	        return new Session(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.workspace = source["workspace"];
	        this.title = source["title"];
	        this.turns = source["turns"];
	        this.created = source["created"];
	        this.updated = source["updated"];
	        this.fork_of = source["fork_of"];
	        this.fork_turns = source["fork_turns"];
	    }
	}
	export class Settings {
	    provider?: ProviderSettings;
	    presets: Preset[];
	    effective: Effective;
	    config_file: string;
	    ask_on_refusal: boolean;
	    ask_forced: boolean;
	    notify_turn_end: boolean;
	    notify_input: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Settings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = this.convertValues(source["provider"], ProviderSettings);
	        this.presets = this.convertValues(source["presets"], Preset);
	        this.effective = this.convertValues(source["effective"], Effective);
	        this.config_file = source["config_file"];
	        this.ask_on_refusal = source["ask_on_refusal"];
	        this.ask_forced = source["ask_forced"];
	        this.notify_turn_end = source["notify_turn_end"];
	        this.notify_input = source["notify_input"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SettingsInput {
	    preset: string;
	    base_url: string;
	    model: string;
	    reasoning: string;
	    models: ModelInfo[];
	    api_key: string;
	    key_action: string;
	
	    static createFrom(source: any = {}) {
	        return new SettingsInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.preset = source["preset"];
	        this.base_url = source["base_url"];
	        this.model = source["model"];
	        this.reasoning = source["reasoning"];
	        this.models = this.convertValues(source["models"], ModelInfo);
	        this.api_key = source["api_key"];
	        this.key_action = source["key_action"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SlashCommand {
	    name: string;
	    usage: string;
	    summary: string;
	    source?: string;
	    path?: string;
	
	    static createFrom(source: any = {}) {
	        return new SlashCommand(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.usage = source["usage"];
	        this.summary = source["summary"];
	        this.source = source["source"];
	        this.path = source["path"];
	    }
	}
	export class Startup {
	    workspace: string;
	    recent: string[];
	    home: string;
	    version: string;
	    layout?: Layout;
	
	    static createFrom(source: any = {}) {
	        return new Startup(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.workspace = source["workspace"];
	        this.recent = source["recent"];
	        this.home = source["home"];
	        this.version = source["version"];
	        this.layout = this.convertValues(source["layout"], Layout);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Status {
	    provider: string;
	    provider_name: string;
	    model: string;
	    base_url: string;
	    config_error: string;
	    usage: Usage;
	    cost_usd?: number;
	    context_used: number;
	    context_limit: number;
	    packs: string[];
	    repls: number;
	    goal?: Goal;
	    running: boolean;
	    sandbox: string;
	    sandbox_source: string;
	    project_held: string[];
	    held_by: number;
	
	    static createFrom(source: any = {}) {
	        return new Status(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.provider_name = source["provider_name"];
	        this.model = source["model"];
	        this.base_url = source["base_url"];
	        this.config_error = source["config_error"];
	        this.usage = this.convertValues(source["usage"], Usage);
	        this.cost_usd = source["cost_usd"];
	        this.context_used = source["context_used"];
	        this.context_limit = source["context_limit"];
	        this.packs = source["packs"];
	        this.repls = source["repls"];
	        this.goal = this.convertValues(source["goal"], Goal);
	        this.running = source["running"];
	        this.sandbox = source["sandbox"];
	        this.sandbox_source = source["sandbox_source"];
	        this.project_held = source["project_held"];
	        this.held_by = source["held_by"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class StopResult {
	    result: string;
	    id: string;
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new StopResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.result = source["result"];
	        this.id = source["id"];
	        this.message = source["message"];
	    }
	}
	export class Stopped {
	    cancelled: boolean;
	    returned: ReturnedInput[];
	
	    static createFrom(source: any = {}) {
	        return new Stopped(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.cancelled = source["cancelled"];
	        this.returned = this.convertValues(source["returned"], ReturnedInput);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SubmitResult {
	    kind: string;
	    session_id: string;
	    text: string;
	    started: boolean;
	    queued: boolean;
	    goal?: GoalView;
	
	    static createFrom(source: any = {}) {
	        return new SubmitResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.session_id = source["session_id"];
	        this.text = source["text"];
	        this.started = source["started"];
	        this.queued = source["queued"];
	        this.goal = this.convertValues(source["goal"], GoalView);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class Turn {
	    position: number;
	    channel: string;
	    request: string;
	    status: string;
	    answer: string;
	    error: string;
	    usage: Usage;
	    duration_ms: number;
	    started: string;
	    iterations: Iteration[];
	    images: TurnImage[];
	    changes?: events.TurnChanges;
	    context_fold?: events.ContextCompaction;
	
	    static createFrom(source: any = {}) {
	        return new Turn(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.position = source["position"];
	        this.channel = source["channel"];
	        this.request = source["request"];
	        this.status = source["status"];
	        this.answer = source["answer"];
	        this.error = source["error"];
	        this.usage = this.convertValues(source["usage"], Usage);
	        this.duration_ms = source["duration_ms"];
	        this.started = source["started"];
	        this.iterations = this.convertValues(source["iterations"], Iteration);
	        this.images = this.convertValues(source["images"], TurnImage);
	        this.changes = this.convertValues(source["changes"], events.TurnChanges);
	        this.context_fold = this.convertValues(source["context_fold"], events.ContextCompaction);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Transcript {
	    session: Session;
	    turns: Turn[];
	    seq: number;
	    running: boolean;
	    queue: QueuedInput[];
	    questions: Question[];
	
	    static createFrom(source: any = {}) {
	        return new Transcript(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.session = this.convertValues(source["session"], Session);
	        this.turns = this.convertValues(source["turns"], Turn);
	        this.seq = source["seq"];
	        this.running = source["running"];
	        this.queue = this.convertValues(source["queue"], QueuedInput);
	        this.questions = this.convertValues(source["questions"], Question);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class UndoOutcome {
	    undo?: backend.UndoView;
	    conflicts: string[];
	
	    static createFrom(source: any = {}) {
	        return new UndoOutcome(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.undo = this.convertValues(source["undo"], backend.UndoView);
	        this.conflicts = source["conflicts"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class UpdateNotice {
	    version: string;
	    url: string;
	    notes: string;
	    current: string;
	
	    static createFrom(source: any = {}) {
	        return new UpdateNotice(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.version = source["version"];
	        this.url = source["url"];
	        this.notes = source["notes"];
	        this.current = source["current"];
	    }
	}
	
	export class Verdict {
	    ok: boolean;
	    message: string;
	    models: string[];
	
	    static createFrom(source: any = {}) {
	        return new Verdict(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ok = source["ok"];
	        this.message = source["message"];
	        this.models = source["models"];
	    }
	}

}

export namespace backend {
	
	export class MCPServerEntry {
	    name: string;
	    command?: string;
	    args?: string[];
	    env?: Record<string, string>;
	    cwd?: string;
	    url?: string;
	    headers?: Record<string, string>;
	    disabled?: boolean;
	    from: string;
	    editable: boolean;
	    shadowed?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new MCPServerEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.command = source["command"];
	        this.args = source["args"];
	        this.env = source["env"];
	        this.cwd = source["cwd"];
	        this.url = source["url"];
	        this.headers = source["headers"];
	        this.disabled = source["disabled"];
	        this.from = source["from"];
	        this.editable = source["editable"];
	        this.shadowed = source["shadowed"];
	    }
	}
	export class MCPSettingsView {
	    file: string;
	    servers: MCPServerEntry[];
	    error?: string;
	
	    static createFrom(source: any = {}) {
	        return new MCPSettingsView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.file = source["file"];
	        this.servers = this.convertValues(source["servers"], MCPServerEntry);
	        this.error = source["error"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class MCPTool {
	    name: string;
	    description?: string;
	
	    static createFrom(source: any = {}) {
	        return new MCPTool(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.description = source["description"];
	    }
	}
	export class MCPTestResult {
	    ok: boolean;
	    message: string;
	    tools: MCPTool[];
	    log?: string;
	
	    static createFrom(source: any = {}) {
	        return new MCPTestResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ok = source["ok"];
	        this.message = source["message"];
	        this.tools = this.convertValues(source["tools"], MCPTool);
	        this.log = source["log"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class SessionFile {
	    path: string;
	    old_path?: string;
	    status: string;
	    turns: number[];
	    added: number;
	    deleted: number;
	    binary?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SessionFile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.old_path = source["old_path"];
	        this.status = source["status"];
	        this.turns = source["turns"];
	        this.added = source["added"];
	        this.deleted = source["deleted"];
	        this.binary = source["binary"];
	    }
	}
	export class SessionChanges {
	    session_id: string;
	    files: SessionFile[];
	    added: number;
	    deleted: number;
	    from: number;
	    to: number;
	
	    static createFrom(source: any = {}) {
	        return new SessionChanges(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.session_id = source["session_id"];
	        this.files = this.convertValues(source["files"], SessionFile);
	        this.added = source["added"];
	        this.deleted = source["deleted"];
	        this.from = source["from"];
	        this.to = source["to"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class TurnDiff {
	    session_id: string;
	    turn: number;
	    files: checkpoint.FileChange[];
	    added: number;
	    deleted: number;
	    undo_of?: number;
	    undone_by?: number;
	
	    static createFrom(source: any = {}) {
	        return new TurnDiff(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.session_id = source["session_id"];
	        this.turn = source["turn"];
	        this.files = this.convertValues(source["files"], checkpoint.FileChange);
	        this.added = source["added"];
	        this.deleted = source["deleted"];
	        this.undo_of = source["undo_of"];
	        this.undone_by = source["undone_by"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class UndoView {
	    session_id: string;
	    turn: number;
	    undo_turn: number;
	    restored: string[];
	    removed: string[];
	    skipped?: string[];
	    not_restored?: string[];
	    held?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new UndoView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.session_id = source["session_id"];
	        this.turn = source["turn"];
	        this.undo_turn = source["undo_turn"];
	        this.restored = source["restored"];
	        this.removed = source["removed"];
	        this.skipped = source["skipped"];
	        this.not_restored = source["not_restored"];
	        this.held = source["held"];
	    }
	}
	export class UserFile {
	    name: string;
	    description: string;
	    usage?: string;
	    source: string;
	    path: string;
	    shadowed?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new UserFile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.description = source["description"];
	        this.usage = source["usage"];
	        this.source = source["source"];
	        this.path = source["path"];
	        this.shadowed = source["shadowed"];
	    }
	}
	export class UserFilesView {
	    prompts: UserFile[];
	    skills: UserFile[];
	    prompt_dirs: string[];
	    skill_dirs: string[];
	    project_held?: boolean;
	    warnings?: string[];
	
	    static createFrom(source: any = {}) {
	        return new UserFilesView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.prompts = this.convertValues(source["prompts"], UserFile);
	        this.skills = this.convertValues(source["skills"], UserFile);
	        this.prompt_dirs = source["prompt_dirs"];
	        this.skill_dirs = source["skill_dirs"];
	        this.project_held = source["project_held"];
	        this.warnings = source["warnings"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace checkpoint {
	
	export class FileChange {
	    path: string;
	    old_path?: string;
	    status: string;
	    binary?: boolean;
	    too_large?: boolean;
	    added: number;
	    deleted: number;
	    old_mode?: string;
	    new_mode?: string;
	    size?: number;
	    patch?: string;
	    patch_clipped?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new FileChange(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.old_path = source["old_path"];
	        this.status = source["status"];
	        this.binary = source["binary"];
	        this.too_large = source["too_large"];
	        this.added = source["added"];
	        this.deleted = source["deleted"];
	        this.old_mode = source["old_mode"];
	        this.new_mode = source["new_mode"];
	        this.size = source["size"];
	        this.patch = source["patch"];
	        this.patch_clipped = source["patch_clipped"];
	    }
	}

}

export namespace events {
	
	export class ContextCompaction {
	    outputs_dropped: number;
	    programs_folded: number;
	    outputs_clipped: number;
	    answers_shortened: number;
	    turns_dropped: number;
	    request_tokens: number;
	    note: string;
	
	    static createFrom(source: any = {}) {
	        return new ContextCompaction(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.outputs_dropped = source["outputs_dropped"];
	        this.programs_folded = source["programs_folded"];
	        this.outputs_clipped = source["outputs_clipped"];
	        this.answers_shortened = source["answers_shortened"];
	        this.turns_dropped = source["turns_dropped"];
	        this.request_tokens = source["request_tokens"];
	        this.note = source["note"];
	    }
	}
	export class TurnChanges {
	    files: number;
	    added: number;
	    deleted: number;
	    undo_of?: number;
	    undone_by?: number;
	
	    static createFrom(source: any = {}) {
	        return new TurnChanges(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.files = source["files"];
	        this.added = source["added"];
	        this.deleted = source["deleted"];
	        this.undo_of = source["undo_of"];
	        this.undone_by = source["undone_by"];
	    }
	}

}

