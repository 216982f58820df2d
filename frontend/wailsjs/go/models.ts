export namespace app {
	
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
	    error?: CallError;
	    duration_ms: number;
	
	    static createFrom(source: any = {}) {
	        return new Call(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.call_id = source["call_id"];
	        this.code = source["code"];
	        this.output = source["output"];
	        this.error = this.convertValues(source["error"], CallError);
	        this.duration_ms = source["duration_ms"];
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
	export class Session {
	    id: string;
	    workspace: string;
	    title: string;
	    turns: number;
	    created: string;
	    updated: string;
	
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
	    }
	}
	export class Startup {
	    workspace: string;
	    home: string;
	    version: string;
	
	    static createFrom(source: any = {}) {
	        return new Startup(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.workspace = source["workspace"];
	        this.home = source["home"];
	        this.version = source["version"];
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
	
	    static createFrom(source: any = {}) {
	        return new Transcript(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.session = this.convertValues(source["session"], Session);
	        this.turns = this.convertValues(source["turns"], Turn);
	        this.seq = source["seq"];
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
	

}

