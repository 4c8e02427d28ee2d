// The entry of dist/chunks/app-<hash>.js: the whole program (commands and console) as one script, which the bin
// runs through V8's code cache. cli.tsx starts the program as it is evaluated.
import '../cli';
