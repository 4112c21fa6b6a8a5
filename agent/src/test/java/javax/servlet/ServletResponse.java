package javax.servlet;

/** A stand-in for the servlet API, which the agent must match without depending on it. */
public interface ServletResponse {}
