package sample.workload;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** The application's own marker: the agent matches any annotation with this simple name. */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface WhyslowUnit {}
