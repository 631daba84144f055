"""Every built-in function of Neo4j 5.25, the version Heracles runs (the Cypher Manual's
function index and its category pages; `timestamp()` is on the scalar page only).

A model's call of any other name is Neo4j's "Unknown function" error, the model's fault
(`syntax`), even where Kuzu or Ladybug has a function of that name (`pow`, `concat`, `ln`,
`list_sort`): answering it would score a query Neo4j rejects. A name in this list that the
translator cannot compute is refused (`dialect`). Names are lower case, dotted names whole.
"""

from __future__ import annotations

NEO4J_5_FUNCTIONS: frozenset[str] = frozenset({
    # aggregating
    "avg", "collect", "count", "max", "min", "percentilecont", "percentiledisc", "stdev", "stdevp",
    "sum",
    # database
    "db.namefromelementid",
    # genai
    "genai.vector.encode",
    # graph
    "graph.byelementid", "graph.byname", "graph.names", "graph.propertiesbyname",
    # list
    "keys", "labels", "nodes", "range", "reduce", "relationships", "tail", "tobooleanlist",
    "tofloatlist", "tointegerlist", "tostringlist",
    # list/string
    "reverse",
    # load csv
    "file", "linenumber",
    # logarithmic
    "e", "exp", "log", "log10", "sqrt",
    # numeric
    "abs", "ceil", "floor", "isnan", "rand", "round", "sign",
    # predicate
    "all", "any", "exists", "isempty", "none", "single",
    # scalar
    "char_length", "character_length", "coalesce", "elementid", "endnode", "head", "id", "last",
    "length", "nullif", "properties", "randomuuid", "size", "startnode", "timestamp", "toboolean",
    "tobooleanornull", "tofloat", "tofloatornull", "tointeger", "tointegerornull", "type",
    "valuetype",
    # spatial
    "point", "point.distance", "point.withinbbox",
    # string
    "btrim", "left", "lower", "ltrim", "normalize", "replace", "right", "rtrim", "split",
    "substring", "tolower", "tostring", "tostringornull", "toupper", "trim", "upper",
    # temporal duration
    "duration", "duration.between", "duration.indays", "duration.inmonths", "duration.inseconds",
    # temporal instant
    "date", "date.realtime", "date.statement", "date.transaction", "date.truncate", "datetime",
    "datetime.fromepoch", "datetime.fromepochmillis", "datetime.realtime", "datetime.statement",
    "datetime.transaction", "datetime.truncate", "localdatetime", "localdatetime.realtime",
    "localdatetime.statement", "localdatetime.transaction", "localdatetime.truncate", "localtime",
    "localtime.realtime", "localtime.statement", "localtime.transaction", "localtime.truncate",
    "time", "time.realtime", "time.statement", "time.transaction", "time.truncate",
    # trigonometric
    "acos", "asin", "atan", "atan2", "cos", "cot", "degrees", "haversin", "pi", "radians", "sin",
    "tan",
    # vector
    "vector.similarity.cosine", "vector.similarity.euclidean",
})
# Namespaces of plugins a server may have (APOC, the Graph Data Science library): not
# Neo4j's own, and not known to be missing from Heracles' server, so refused, never charged.
PLUGIN_PREFIXES = ("apoc.", "gds.")
