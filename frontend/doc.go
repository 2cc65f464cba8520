// Package frontend compiles the .pds modelling language into a pds.Network.
package frontend
